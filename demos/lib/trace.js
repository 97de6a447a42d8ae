// The pass-by-pass trace (ctx.trace.stop()) as an HTML table.
export function traceTable(passes) {
  const rows = passes
    .map((p) => `<tr><td>${p.pass}</td><td style="text-align:left">${p.kernel}</td><td>${p.records}</td><td>${p.width}×${p.height}</td>` +
      `<td style="text-align:left">${p.inputs.join('<br>') || '-'}</td><td style="text-align:left">${p.outputs.join('<br>')}</td>` +
      `<td>${p.gpuMs === null ? '-' : p.gpuMs.toFixed(3)}</td></tr>`)
    .join('');
  return `<table class="trace"><thead><tr><th>pass</th><th>kernel</th><th>records</th><th>texture</th><th>reads</th><th>writes</th><th>GPU ms</th></tr></thead><tbody>${rows}</tbody></table>`;
}
