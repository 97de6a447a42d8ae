"""The Python side of the widgets: kernel signatures, argument conversion, dtype rules, shapes,
and bad input raising BrookError with the kernel's line (no front end needed)."""
import numpy as np
import pytest

import brookgl
from brookgl import BrookError
from brookgl._assets import puzzle_numbers
from brookgl._common import result_array

SAXPY = """
kernel void saxpy(float alpha, float x<>, float y<>, out float result<>) {
  result = alpha * x + y;
}"""

MANY = """// comment with kernel void fake(int a) in it
kernel void many(float4 v<>,      /* a vector stream */
                 int idx[],
                 uint flags<>,
                 iter float2 here<>,
                 float2 scale,
                 out float4 o<>,
                 out int count<>) {
  o = v; count = idx[0];
}"""


def run(source=SAXPY, outputs=None, **args):
    return brookgl.Run(source, outputs=outputs or {"result": 8}, **args)


def test_signature_roles_types_and_lines():
    k = brookgl.parse_kernels(MANY)["many"]
    got = [(p.name, p.type, p.role, p.line) for p in k.params]
    assert got == [
        ("v", "float4", "stream", 2), ("idx", "int", "gather", 3), ("flags", "uint", "stream", 4),
        ("here", "float2", "iter", 5), ("scale", "float2", "uniform", 6), ("o", "float4", "out", 7),
        ("count", "int", "out", 8),
    ]
    assert list(brookgl.parse_kernels(MANY)) == ["many"]  # the commented-out kernel is not one


def test_float64_becomes_float32_and_uniforms_are_plain():
    w = run(x=np.arange(8.0), y=np.ones(8), alpha=np.float64(2))
    assert w.arrays["x"]["dtype"] == "float32" and w.arrays["x"]["shape"] == [8]
    assert np.array_equal(np.frombuffer(w.arrays["x"]["data"], np.float32), np.arange(8, dtype=np.float32))
    assert w.uniforms == {"alpha": 2.0} and isinstance(w.uniforms["alpha"], float)
    assert w.outputs == {"result": 8} and w.kernel == "saxpy"


def test_vector_and_2d_shapes():
    v = np.zeros((4, 5, 4), np.float32)
    w = brookgl.Run(MANY, outputs={"o": (4, 5), "count": (4, 5)}, v=v, idx=np.arange(3, dtype=np.int64),
                    flags=np.ones((4, 5), np.uint8), here=brookgl.iter([0, 0], [1, 1]), scale=[1, 2])
    assert w.arrays["v"]["shape"] == [4, 5, 4]
    assert w.arrays["idx"]["dtype"] == "int32" and w.arrays["flags"]["dtype"] == "uint32"
    assert w.outputs == {"o": [4, 5], "count": [4, 5]}
    assert w.iters == {"here": [[0.0, 0.0], [1.0, 1.0]]} and w.uniforms == {"scale": [1.0, 2.0]}


@pytest.mark.parametrize("args, words", [
    (dict(x=np.arange(8), y=np.ones(8), alpha=2), ["line 2", "`float x<>`", "int64", "astype(np.float32)"]),
    (dict(x=np.ones(8, np.complex64), y=np.ones(8), alpha=2), ["line 2", "complex64"]),
    (dict(x=np.ones(8, bool), y=np.ones(8), alpha=2), ["line 2", "bool"]),
    (dict(x=np.ones((2, 2, 2)), y=np.ones(8), alpha=2), ["line 2", "(n,) or (h, w)", "(2, 2, 2)"]),
    (dict(x=np.ones(0), y=np.ones(8), alpha=2), ["line 2", "empty"]),
    (dict(x=3.0, y=np.ones(8), alpha=2), ["line 2", "numpy array"]),
    (dict(x=np.ones(8), alpha=2), ["line 2", "`float y<>`", "pass y="]),
    (dict(x=np.ones(8), y=np.ones(8)), ["`float alpha`", "pass alpha="]),
    (dict(x=np.ones(8), y=np.ones(8), alpha=2, beta=1), ["no parameter 'beta'"]),
    (dict(x=np.ones(8), y=np.ones(8), alpha=[1, 2]), ["`float alpha`", "1 numbers"]),
    (dict(x=np.ones(8), y=np.ones(8), alpha="2"), ["uniform", "str"]),
    (dict(x=np.ones(8), y=np.ones(8), alpha=2, result=np.ones(8)), ["is an output"]),
])
def test_bad_arguments_name_the_line(args, words):
    with pytest.raises(BrookError) as e:
        run(**args)
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_integer_ranges_and_vector_components():
    src = "kernel void k(int a<>, uint b<>, float3 c<>, out float r<>) { r = 0.0; }"
    ok = dict(a=np.zeros(4, np.int64), b=np.zeros(4, np.int64), c=np.zeros((4, 3)))
    brookgl.Run(src, outputs={"r": 4}, **ok)
    for bad, words in [
        (dict(ok, a=np.array([2**31, 0, 0, 0])), ["line 1", "outside int32"]),
        (dict(ok, b=np.array([-1, 0, 0, 0])), ["outside uint32"]),
        (dict(ok, a=np.zeros(4, np.float32)), ["`int a<>`", "pass integers"]),
        (dict(ok, c=np.zeros((4, 4))), ["`float3 c<>`", "(n, 3) or (h, w, 3)"]),
    ]:
        with pytest.raises(BrookError) as e:
            brookgl.Run(src, outputs={"r": 4}, **bad)
        assert all(w in str(e.value) for w in words), str(e.value)
    # an int vector uniform: whole numbers only (1.5 was truncated to 1 silently); a 0-d array is a BrookError (was a TypeError)
    src = "kernel void k(int2 n, float x<>, out float r<>) { r = x; }"
    assert brookgl.Run(src, outputs={"r": 4}, n=[1, 2.0], x=np.zeros(4)).uniforms == {"n": [1, 2]}
    for bad, words in [
        (dict(n=[1, 1.5], x=np.zeros(4)), ["`int2 n`", "whole numbers"]),
        (dict(n=np.array(3.0), x=np.zeros(4)), ["`int2 n`", "up to 4 numbers"]),
    ]:
        with pytest.raises(BrookError) as e:
            brookgl.Run(src, outputs={"r": 4}, **bad)
        assert all(w in str(e.value) for w in words), str(e.value)


def test_outputs_checked():
    for outputs, words in [
        ({}, ["`out float result<>`", "outputs="]),
        ({"result": 8, "other": 8}, ["'other'", "not an out parameter"]),
        ({"result": (2, 3, 4)}, ["length n or a (height, width)"]),
        ({"result": 0}, ["positive"]),
    ]:
        with pytest.raises(BrookError) as e:
            brookgl.Run(SAXPY, outputs=outputs, x=np.ones(8), y=np.ones(8), alpha=1)
        assert all(w in str(e.value) for w in words), str(e.value)
    with pytest.raises(BrookError, match="share one domain"):
        brookgl.Run(MANY, outputs={"o": 4, "count": 5}, v=np.zeros((4, 4)), idx=np.zeros(2, np.int32),
                    flags=np.zeros(4, np.uint32), here=brookgl.iter([0, 0], [1, 1]), scale=[1, 1])


def test_source_and_kernel_name_errors():
    with pytest.raises(BrookError, match="no kernel"):
        brookgl.Run("float f(float x) { return x; }", outputs={})
    with pytest.raises(BrookError, match="no kernel named 'nope'"):
        brookgl.Run(SAXPY, kernel="nope", outputs={"result": 8})
    with pytest.raises(BrookError, match="line 2.*no closing"):
        brookgl.Run("\nkernel void k(float x<>, out float r<> {", outputs={})


def front_end_answers(w, results=None, status="done", error=""):
    """What the widget's JavaScript sends after a run (python/js/widget.ts, publish)."""
    buffers, meta = [], {}
    for name, a in (results or {}).items():
        meta[name] = {"dtype": a.dtype.name, "shape": list(a.shape), "buffer": len(buffers)}
        buffers.append(memoryview(a.tobytes()))
    state = {"status": status, "error": error, "renderer": "test", "trace": [], "answered": w.request}
    if results is not None:
        state["results"] = meta
    w._from_front_end(w, {"brookgl": "state", "state": state}, buffers)


def test_results_come_back_as_numpy_and_errors_raise():
    w = run(x=np.ones(8), y=np.ones(8), alpha=1)
    with pytest.raises(LookupError, match="no result yet"):
        w.result("result")
    front_end_answers(w, {"result": np.arange(8, dtype=np.float32)})
    assert w.done and np.array_equal(w.result("result"), np.arange(8, dtype=np.float32))
    assert w.result().dtype == np.float32
    w.rerun(alpha=3)
    assert w.uniforms["alpha"] == 3.0 and w.request == 1 and not w.done  # old results are not the answer
    front_end_answers(w, None, status="error", error="(brookgl) kernel saxpy failed to compile:\n  line 3: 'q' : undeclared identifier")
    with pytest.raises(BrookError, match="line 3"):
        w.result("result")


def test_result_async_waits_and_raises():
    import asyncio

    async def main():
        w = run(x=np.ones(8), y=np.ones(8), alpha=1)
        asyncio.get_running_loop().call_later(0.05, lambda: front_end_answers(w, {"result": np.full(8, 2, np.float32)}))
        got = await w.result_async("result", timeout=5)
        assert np.array_equal(got, np.full(8, 2, np.float32))
        bad = run(x=np.ones(8), y=np.ones(8), alpha=1)
        asyncio.get_running_loop().call_later(0.05, lambda: front_end_answers(bad, None, status="error", error="line 2: oops"))
        with pytest.raises(BrookError, match="line 2: oops"):
            await bad.result_async(timeout=5)
        never = run(x=np.ones(8), y=np.ones(8), alpha=1)
        with pytest.raises(BrookError, match="no result after 0.1 s"):
            await never.result_async(timeout=0.1)

    asyncio.run(main())


def test_result_array_shapes():
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    back = result_array({"dtype": "int32", "shape": [2, 3, 4], "data": memoryview(a.tobytes())})
    assert back.dtype == np.int32 and np.array_equal(back, a)


def test_embed_names_its_demos_and_image_table_render():
    with pytest.raises(BrookError, match="filter, fluid, nbody, dem"):
        brookgl.Embed("nope")
    png = brookgl.image(np.arange(12.0).reshape(3, 4))._repr_png_()[0]
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    html = brookgl.table(["a", "b"], [[1, 2.5]])._repr_html_()
    assert "<th>a</th>" in html and "<td>2.50</td>" in html
    # columns that change between runs are marked for the committed-output check
    html = brookgl.table(["grid", "steps so far"], [[64, 22]], varies=["steps so far"])._repr_html_()
    assert '<th>grid</th><th class="brookgl-varies">steps so far</th>' in html
    with pytest.raises(ValueError, match="'steps'.*not columns"):
        brookgl.table(["grid"], [[64]], varies=["steps"])


def test_app_arrays_checked():
    a = brookgl.App("collide", positions=np.zeros((3, 3)), indices=np.array([0, 1, 2], np.int64))
    assert a.arrays["positions"]["dtype"] == "float32" and a.arrays["indices"]["dtype"] == "int32"
    # int64 indices past int32 were wrapped by astype silently
    for bad, words in [
        (dict(indices=np.array([0, 1, 2**32])), ["App collide", "indices", "outside int32"]),
        (dict(indices=np.ones(3, bool)), ["App collide", "indices", "bool"]),
    ]:
        with pytest.raises(BrookError) as e:
            brookgl.App("collide", positions=np.zeros((3, 3)), **bad)
        assert all(w in str(e.value) for w in words), str(e.value)


def test_malformed_answer_is_an_error_at_once():
    """A front end's answer naming a buffer it does not carry (or bytes that do not fit the shape)
    raised IndexError inside the comm handler (only logged): the cell waited until its timeout."""
    import asyncio

    def answer(w, results, buffers):
        state = {"status": "done", "error": "", "renderer": "test", "trace": [], "answered": w.request, "results": results}
        w._from_front_end(w, {"brookgl": "state", "state": state}, buffers)

    eight = [memoryview(np.zeros(8, np.float32).tobytes())]
    for results, buffers, words in [
        ({"result": {"dtype": "float32", "shape": [8], "buffer": 3}}, eight, ["'result'", "buffer 3", "1 buffer(s)"]),
        ({"result": {"dtype": "float32", "shape": [8], "buffer": 0}}, [], ["buffer 0", "0 buffer(s)"]),
        ({"result": {"dtype": "float32", "shape": [9], "buffer": 0}}, eight, ["32 bytes", "shape (9,)"]),
        ({"result": {"dtype": "complex64", "shape": [4], "buffer": 0}}, eight, ["dtype 'complex64'"]),
        ({"result": {"dtype": "float32", "shape": [8]}}, eight, ["buffer None"]),
    ]:
        async def main():
            w = run(x=np.ones(8), y=np.ones(8), alpha=1)
            loop = asyncio.get_running_loop()
            loop.call_later(0.01, lambda: answer(w, results, buffers))
            started = loop.time()
            with pytest.raises(BrookError) as e:
                await w.result_async("result", timeout=5)
            assert loop.time() - started < 1, "waited for the timeout"
            return str(e.value)
        message = asyncio.run(main())
        assert "malformed" in message and all(word in message for word in words), message


def test_char_streams_are_bytes():
    """8-bit streams (char, uchar, unsigned char, fixed) go to the browser as uint8 bytes (the
    widget's JavaScript makes a Uint8Array of them) and char outputs come back as uint8."""
    src = """kernel void k(char4 c<>, uchar a<>,
                          unsigned char u<>, fixed2 f<>, unsigned int n<>, out uchar4 o<>) { o = c; }"""
    k = brookgl.parse_kernels(src)["k"]
    assert [(p.name, p.type, p.role, p.line) for p in k.params] == [
        ("c", "char4", "stream", 1), ("a", "char", "stream", 1), ("u", "char", "stream", 2),
        ("f", "char2", "stream", 2), ("n", "uint", "stream", 2), ("o", "char4", "out", 2)]
    ok = dict(c=np.arange(48, dtype=np.uint8).reshape(3, 4, 4), a=np.full((3, 4), 255, np.int64),
              u=np.zeros((3, 4), np.uint8), f=np.ones((3, 4, 2), np.uint16), n=np.ones((3, 4), np.int32))
    w = brookgl.Run(src, outputs={"o": (3, 4)}, **ok)
    assert {n: (a["dtype"], a["shape"]) for n, a in w.arrays.items()} == {
        "c": ("uint8", [3, 4, 4]), "a": ("uint8", [3, 4]), "u": ("uint8", [3, 4]), "f": ("uint8", [3, 4, 2]), "n": ("uint32", [3, 4])}
    assert bytes(w.arrays["c"]["data"]) == bytes(range(48))
    for bad, words in [
        (dict(ok, c=np.zeros((3, 4, 4), np.float32)), ["line 1", "`char4 c<>`", "8-bit", "astype(np.uint8)"]),
        (dict(ok, a=np.full((3, 4), 256)), ["`uchar a<>`", "outside uint8 (0 to 255)"]),
        (dict(ok, u=-np.ones((3, 4), np.int8)), ["line 2", "`unsigned char u<>`", "outside uint8"]),
    ]:
        with pytest.raises(BrookError) as e:
            brookgl.Run(src, outputs={"o": (3, 4)}, **bad)
        assert all(word in str(e.value) for word in words), str(e.value)
    # a char constant: the compiler refuses it, and so does Python, in the cell that passes it
    with pytest.raises(BrookError, match="`char t`.*float"):
        brookgl.Run("kernel void k(char t, float x<>, out float r<>) { r = x; }", outputs={"r": 4}, t=3, x=np.zeros(4))
    # the answer: uint8 bytes back as a uint8 array of numpy's shape
    front_end_answers(w, {"o": 255 - ok["c"]})
    got = w.result("o")
    assert got.dtype == np.uint8 and got.shape == (3, 4, 4) and np.array_equal(got, 255 - ok["c"])


def test_check_puzzle_arguments():
    c = brookgl.check_puzzle(3, "kernel void leftDifference(float a[], iter float i<>, out float o<>) { o = a[i]; }")
    assert c.kind == "app" and c.app == "puzzle" and c.options == {"n": 3, "source": c.options["source"]}
    assert "check_puzzle 3" in repr(c)
    count = len(puzzle_numbers())
    assert puzzle_numbers() == tuple(range(1, count + 1))
    brookgl.check_puzzle(count, "kernel void k(out float o<>) { o = 1; }")
    for n in (0, count + 1, 2.0, True, "3"):
        with pytest.raises(BrookError, match=f"puzzle number from 1 to {count}, got"):
            brookgl.check_puzzle(n, "kernel void k(out float o<>) { o = 1; }")
    with pytest.raises(BrookError, match="Brook text"):
        brookgl.check_puzzle(1, None)


def test_puzzle_list_is_the_librarys():
    """check_puzzle's range comes from static/puzzles.json, which the build writes from the
    library's PUZZLES: the list here is the built library's (a build that forgot it, or a stale
    one, fails)."""
    import json
    import shutil
    import subprocess
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    node = shutil.which("node")
    if not node or not (root / "dist" / "brookgl.js").exists():
        pytest.skip("needs node and the built library (dist/brookgl.js: npm run build)")
    read = "import('./dist/brookgl.js').then((m) => console.log(JSON.stringify(m.PUZZLES.map((p) => p.n))))"
    out = subprocess.run([node, "--input-type=module", "-e", read], cwd=root, check=True, capture_output=True, text=True)
    assert puzzle_numbers() == tuple(json.loads(out.stdout))


ADD8 = "kernel void add8(uchar a<>, uchar b<>, out uchar c<>) { c = a + b; }"


def test_compare_options_checked():
    """compare= and brookgl.compare: the tolerance sent to the browser's compareBackends, bad values refused here."""
    a, b = np.arange(8, dtype=np.uint8), np.full(8, 250, np.uint8)
    assert run(x=np.arange(8.0), y=np.ones(8), alpha=1.0).compare == {}  # GPU only by default
    assert run(x=np.arange(8.0), y=np.ones(8), alpha=1.0, compare=True).compare == {"ulps": 4.0, "abs": 0.0, "first": 5}
    w = brookgl.compare(ADD8, outputs={"c": 8}, a=a, b=b, ulps=2, abs=1e-6, first=3)
    assert isinstance(w, brookgl.Run) and w.kernel == "add8"
    assert w.compare == {"ulps": 2.0, "abs": 1e-6, "first": 3}
    assert w.arrays["a"]["dtype"] == "uint8"  # the arguments are Run's, checked the same way
    assert run(x=np.arange(8.0), y=np.ones(8), alpha=1.0, compare={"first": np.int64(10)}).compare["first"] == 10
    for bad, words in [
        ({"ulps": -1}, "compare's ulps must be a finite number >= 0"),
        ({"ulps": float("nan")}, "compare's ulps"),
        ({"abs": True}, "compare's abs"),
        ({"first": 0}, "compare's first must be a whole number >= 1"),
        ({"first": 2.5}, "compare's first"),
        ({"tolerance": 3}, "compare has no option 'tolerance'"),
        ("yes", "compare must be True, False or a dict"),
    ]:
        with pytest.raises(BrookError, match=words.replace("(", r"\(").replace(")", r"\)")):
            run(x=np.arange(8.0), y=np.ones(8), alpha=1.0, compare=bad)
    with pytest.raises(BrookError, match="has no parameter 'z'"):
        brookgl.compare(ADD8, outputs={"c": 8}, a=a, b=b, z=1)


def test_comparison_comes_back_and_waits():
    """The browser's report arrives with the answer; comparison_async returns it, raises the
    browser's error, and refuses a widget made without compare=."""
    import asyncio

    a, b = np.arange(8, dtype=np.uint8), np.full(8, 250, np.uint8)
    w = brookgl.compare(ADD8, outputs={"c": 8}, a=a, b=b)
    report = {"ok": False, "renderer": "test", "cpu": "brookgl CPU (JavaScript)", "tolerance": {"ulps": 4, "abs": 0},
              "outputs": {"c": {"records": 8, "differing": 2, "first": [{"record": 6, "position": [6], "gpu": [255], "cpu": [0], "ulps": 255, "inputs": {"a": [6], "b": [250]}}]}}}

    def answer(widget, status="done", error="", comparison=None):
        state = {"status": status, "error": error, "renderer": "test", "trace": [], "answered": widget.request,
                 "results": {}, "comparison": comparison or {}}
        widget._from_front_end(widget, {"brookgl": "state", "state": state}, [])

    async def go():
        asyncio.get_running_loop().call_later(0.05, lambda: answer(w, comparison=report))
        got = await w.comparison_async(timeout=5)
        assert got == report and got["outputs"]["c"]["first"][0]["cpu"] == [0]
        bad = brookgl.compare(ADD8, outputs={"c": 8}, a=a, b=b)
        asyncio.get_running_loop().call_later(0.05, lambda: answer(bad, status="error", error="kernel add8: oops"))
        with pytest.raises(BrookError, match="oops"):
            await bad.comparison_async(timeout=5)
        plain = run(x=np.arange(8.0), y=np.ones(8), alpha=1.0)
        with pytest.raises(BrookError, match="make it with compare=True"):
            await plain.comparison_async(timeout=1)

    asyncio.run(go())
