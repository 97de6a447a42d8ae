/**
 * The GLSL compiler's messages in Brook's words, for a kernel's compile error (kernelsource.ts
 * describeCompileError). Browsers validate WebGL shaders with ANGLE's translator, whose messages
 * name GLSL types ('highp 3-component vector of float') and, for a Brook kernel, the generated
 * conversion helpers of src/brook/cg.ts: an assignment that Cg does not allow, such as a float3
 * into a float4 output, fails as "'brook_to_vec4' : no matching overloaded function found",
 * followed by error-recovery messages about a 'const mediump float' that the kernel never wrote.
 * Here such a line becomes "`c` is a float3, which does not convert to float4 `o`". Until the
 * typed front end reports these itself, this is where they are put in Brook's terms.
 */

const SCALARS: Record<string, string> = { float: 'float', int: 'int', uint: 'uint', bool: 'bool' };

/** A GLSL type name (vec3, ivec2, uint, mat4) as Brook writes it (float3, int2, uint, float4x4); other names as they are. */
export function brookTypeOfGlsl(glsl: string): string {
  if (SCALARS[glsl]) return glsl;
  const v = /^([iub]?)vec([234])$/.exec(glsl);
  if (v) return `${{ '': 'float', i: 'int', u: 'uint', b: 'bool' }[v[1]!]}${v[2]}`;
  const m = /^mat([234])(?:x([234]))?$/.exec(glsl);
  if (m) return `float${m[1]}x${m[2] ?? m[1]}`;
  return glsl;
}

/** ANGLE's words for a type ('const highp 4-component vector of float', 'mediump int') in Brook's (float4, int), or null. */
export function brookTypeOfAngle(words: string): string | null {
  const w = words.replace(/\b(const|highp|mediump|lowp|in|out|inout)\s+/g, '').trim();
  if (SCALARS[w]) return w;
  const v = /^([234])-component vector of (float|int|uint|bool)$/.exec(w);
  if (v) return `${v[2]}${v[1]}`;
  const m = /^([234])X([234]) matrix of float$/i.exec(w);
  if (m) return `float${m[1]}x${m[2]}`;
  const s = /^structure '(\w+)'$/.exec(w);
  if (s) return s[1]!;
  return null;
}

/** The text of the balanced parenthesized argument list that opens at `open` ('(' at that index). */
function argumentAt(text: string, open: number): string | null {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return null;
}

const TYPE_WORD = String.raw`(?:float|int|uint|bool|[iub]?vec[234]|mat[234](?:x[234])?)`;

/**
 * The GLSL type of a simple expression of `source`'s line `line` (1-based), found from the source's
 * declarations: a variable, a call of a declared function (a gather accessor) or constructor, and a
 * swizzle of either; null when it is not one of these.
 */
export function glslTypeOf(expr: string, source: string, line: number): string | null {
  let e = expr.trim();
  while (e.startsWith('(') && argumentAt(e, 0) === e.slice(1, -1)) e = e.slice(1, -1).trim();
  const swizzle = /^(.*[\w\])])\.([xyzw]{1,4}|[rgba]{1,4})$/.exec(e);
  if (swizzle) {
    const base = glslTypeOf(swizzle[1]!, source, line);
    if (!base) return null;
    const kind = /^([iub]?)vec/.exec(base)?.[1] ?? (base === 'int' ? 'i' : base === 'uint' ? 'u' : base === 'bool' ? 'b' : '');
    const n = swizzle[2]!.length;
    return n === 1 ? ({ '': 'float', i: 'int', u: 'uint', b: 'bool' }[kind] ?? 'float') : `${kind}vec${n}`;
  }
  const before = source.split('\n').slice(0, line).join('\n');
  const call = /^([A-Za-z_]\w*)\s*\(/.exec(e);
  if (call && argumentAt(e, e.indexOf('(')) === e.slice(e.indexOf('(') + 1, -1)) {
    if (new RegExp(`^${TYPE_WORD}$`).test(call[1]!)) return call[1]!;
    const decl = new RegExp(String.raw`(?:^|\n)\s*(${TYPE_WORD}|[A-Za-z_]\w*)\s+${call[1]}\s*\(`).exec(before);
    return decl ? decl[1]! : null;
  }
  if (/^[A-Za-z_]\w*$/.test(e)) {
    const decls = [...before.matchAll(new RegExp(String.raw`\b(${TYPE_WORD})\s+${e}\s*[=;,)\[]`, 'g'))];
    return decls.length ? decls.at(-1)![1]! : null;
  }
  return null;
}

/** One compiler message on a line of the kernel's body, in Brook's words (or as it is, generated names aside). */
export interface BodyMessage {
  /** The generated source's line (1-based) the compiler named. */
  line: number;
  /** The compiler's message, after "ERROR: 0:LINE: ". */
  text: string;
}

/**
 * The messages of the compiler on body lines in Brook's words: a conversion Cg does not allow
 * (brook_to_T or brook_bool found no overload) as which type does not convert to which, its
 * error-recovery messages on the same line dropped; GLSL type words and helper names rewritten
 * in the others. Returns one string per kept message, in order, with its generated line.
 */
export function brookMessages(messages: BodyMessage[], source: string, gathers: readonly string[] = []): { line: number; text: string }[] {
  const src = source.split('\n');
  const converted = new Set<number>();
  const out: { line: number; text: string }[] = [];
  for (const { line, text } of messages) {
    const failed = /^'(brook_to_(\w+)|brook_bool)' : no matching overloaded function found/.exec(text);
    if (failed) {
      if (converted.has(line)) continue;
      converted.add(line);
      out.push({ line, text: conversionMessage(src[line - 1] ?? '', failed[1]!, failed[2], source, line, gathers) });
      continue;
    }
    if (converted.has(line)) continue; // error recovery after the failed conversion: not the kernel's words
    out.push({ line, text: rewordGlsl(text) });
  }
  return out;
}

/** "`c` is a float3, which does not convert to float4 `o`", from the generated line of a failed brook_to_T / brook_bool call. */
function conversionMessage(code: string, helper: string, target: string | undefined, source: string, line: number, gathers: readonly string[]): string {
  const at = code.indexOf(`${helper}(`);
  const glslArg = at >= 0 ? argumentAt(code, at + helper.length)?.trim() : null;
  const argType = glslArg ? glslTypeOf(glslArg, source, line) : null;
  const arg = glslArg ? gatherForm(glslArg, gathers) : null;
  const what = arg ? `\`${arg}\`${argType ? ` is a ${brookTypeOfGlsl(argType)}, which` : ''}` : 'the value';
  if (!target) {
    return `${what} cannot be a condition (Brook tests a scalar: compare it, or test components, e.g. any(... != 0.0) or v.x != 0.0)`;
  }
  const into = brookTypeOfGlsl(target);
  // The left side: `name = brook_to_T(` or `name += brook_to_T(`, or a declaration `T name = ...`.
  const lhs = at >= 0 ? /([A-Za-z_][\w.[\]]*)\s*[-+*/]?=\s*$/.exec(code.slice(0, at))?.[1] : undefined;
  const rule = argType && /vec|mat/.test(argType) && /vec|mat/.test(target) && Number(argType.slice(-1)) < Number(target.slice(-1))
    ? `a vector converts to a shorter one, never to a longer one: give the missing components, e.g. ${into}(${arg}, ...)`
    : 'Cg converts a scalar to any vector, a vector to a shorter one, and int, uint and bool to float';
  return `${what} does not convert to ${into}${lhs ? ` \`${lhs}\`` : ''} (${rule})`;
}

/** The gather accessor calls of generated code (`img(p.y, p.x)`) as Brook writes them (`img[p.y][p.x]`). */
function gatherForm(expr: string, gathers: readonly string[]): string {
  let out = expr;
  for (const g of gathers) {
    for (let at = out.search(new RegExp(String.raw`\b${g}\(`)); at >= 0; at = out.search(new RegExp(String.raw`\b${g}\(`))) {
      const open = at + g.length;
      const args = argumentAt(out, open);
      if (args === null) break;
      const parts: string[] = [];
      let depth = 0;
      let from = 0;
      for (let i = 0; i < args.length; i++) {
        if ('([{'.includes(args[i]!)) depth++;
        else if (')]}'.includes(args[i]!)) depth--;
        else if (args[i] === ',' && depth === 0) {
          parts.push(args.slice(from, i).trim());
          from = i + 1;
        }
      }
      parts.push(args.slice(from).trim());
      out = `${out.slice(0, at)}${g}${parts.map((p) => `[${p}]`).join('')}${out.slice(open + args.length + 2)}`;
    }
  }
  return out;
}

/** GLSL's type words in a compiler message ('highp 3-component vector of float') as Brook's (float3), generated helper names as what they do. */
export function rewordGlsl(text: string): string {
  return text
    .replace(/'([^']*)'/g, (all, inner: string) => {
      const t = brookTypeOfAngle(inner);
      return t ? `'${t}'` : all;
    })
    .replace(/\bbrook_to_(\w+)\b/g, (_all, t: string) => `conversion to ${brookTypeOfGlsl(t)}`)
    .replace(/\bbrook_bool\b/g, 'condition');
}
