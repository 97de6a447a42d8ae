"""brookgl in plain HTML output cells: no widget machinery, just scripts in the output.

``load()`` puts the widget module into the page once (as ``window.brookglWidget``); each
``html_run``/``html_embed`` output then renders with a small local model that follows
anywidget's model interface. Results go back to Python as a Jupyter comm opened on the kernel:
through ``Jupyter.notebook.kernel`` in the classic Notebook (6.x); in JupyterLab and Notebook 7,
whose pages expose no kernel object to outputs, over the Jupyter server's own kernel channel
(``/api/kernels/<id>/channels``: the kernel's id comes with the output, the server's address and
token from the page's ``jupyter-config-data``). Where neither exists (VS Code, Colab) results are
shown but stay in the page.
"""
from __future__ import annotations

import base64
import json
import uuid
from typing import Any, Dict, Optional

from ._assets import widget_iife
from ._common import output_shapes, result_array, split_args

COMM_TARGET = "brookgl.results"
_RUNS: Dict[str, "HtmlRun"] = {}
_registered = False


def _register_comm_target() -> bool:
    """Registers the comm target that receives results; False outside an IPython kernel."""
    global _registered
    if _registered:
        return True
    try:
        from IPython import get_ipython

        kernel = getattr(get_ipython(), "kernel", None)
        if kernel is None:
            return False
        kernel.comm_manager.register_target(COMM_TARGET, _on_comm)
        _registered = True
        return True
    except Exception:  # pragma: no cover - not in a kernel
        return False


def _on_comm(comm, open_msg) -> None:
    data = open_msg["content"]["data"]
    buffers = open_msg.get("buffers") or []
    if not buffers and "b64" in data:
        # sent over the server's kernel channel as JSON text: buffers travel base64-encoded
        buffers = [memoryview(base64.b64decode(b)) for b in data["b64"]]
    run = _RUNS.get(data.get("id"))
    if run is not None:
        run._receive(data, buffers)
    comm.close()


def _kernel_id() -> str:
    """This kernel's id as the Jupyter server knows it (from its connection file's name), or ''."""
    try:
        import os

        import ipykernel

        name = os.path.basename(ipykernel.get_connection_file())
        return name[len("kernel-"):-len(".json")] if name.startswith("kernel-") and name.endswith(".json") else ""
    except Exception:  # pragma: no cover - not in a kernel
        return ""


class _Html:
    def __init__(self, html: str):
        self._html = html

    def _repr_html_(self) -> str:
        return self._html


def load():
    """Defines the widget module in the page (run once per notebook, before the other calls)."""
    _register_comm_target()
    code = widget_iife().replace("</script", "<\\/script")
    return _Html(f"<script>{code}</script><div>brookgl loaded ({len(code) // 1024} KB, inlined)</div>")


_CLIENT = r"""
<div id="%(id)s" data-brookgl-run></div>
<script>
(function () {
  var el = document.getElementById(%(id_json)s);
  var state = %(state)s;
  function bytes(b64) { var s = atob(b64), a = new Uint8Array(s.length); for (var i = 0; i < s.length; i++) a[i] = s.charCodeAt(i); return new DataView(a.buffer); }
  for (var k in state.arrays) state.arrays[k].data = bytes(state.arrays[k].data);
  var listeners = {};
  var model = {
    get: function (n) { return state[n]; },
    set: function (n, v) { state[n] = v; (listeners['change:' + n] || []).forEach(function (f) { f(); }); },
    on: function (e, f) { (listeners[e] = listeners[e] || []).push(f); },
    off: function (e, f) { if (!e) listeners = {}; else listeners[e] = (listeners[e] || []).filter(function (g) { return f && g !== f; }); },
    save_changes: function () {
      if (state.status !== 'done' && state.status !== 'error' && state.status !== 'ready') return;
      el.dataset.status = state.status;
      var meta = {}, buffers = [];
      for (var name in (state.results || {})) {
        var r = state.results[name];
        meta[name] = { dtype: r.dtype, shape: r.shape, buffer: buffers.length };
        buffers.push(r.data);
      }
      var data = { id: %(id_json)s, status: state.status, error: state.error || '', renderer: state.renderer || '',
        trace: state.trace || [], state: state.state || {}, results: meta, request: state.request || 0 };
      // an embed saves every second: send only what changed (a rerun sends its new results)
      var key = JSON.stringify(data);
      if (key === sentKey) return;
      sentKey = key;
      send(data, buffers);
    },
  };
  var sentKey = null, channel = null, queued = [];
  function send(data, buffers) {
    var kernel = window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel;
    if (kernel) {
      el.dataset.sent = 'classic';
      // notebook 6: new_comm(target_name, data, callbacks, metadata, comm_id, buffers)
      kernel.comm_manager.new_comm(%(target)s, data, {}, {}, undefined, buffers);
      return;
    }
    var config = document.getElementById('jupyter-config-data');
    if (!config || !%(kernel_json)s) return;
    config = JSON.parse(config.textContent);
    data.b64 = buffers.map(function (b) {
      var u = new Uint8Array(b.buffer || b, b.byteOffset || 0, b.byteLength), s = '';
      for (var i = 0; i < u.length; i += 0x8000) s += String.fromCharCode.apply(null, u.subarray(i, i + 0x8000));
      return btoa(s);
    });
    var session = 'brookgl-' + Math.random().toString(16).slice(2);
    queued.push(JSON.stringify({ channel: 'shell', buffers: [], metadata: {}, parent_header: {},
      header: { msg_id: session, msg_type: 'comm_open', session: session, username: '', date: new Date().toISOString(), version: '5.3' },
      content: { comm_id: session, target_name: %(target)s, data: data } }));
    if (!channel) {
      // one socket per output, on the Jupyter server's channel of this kernel
      var base = (config.wsUrl || (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + (config.baseUrl || '/')).replace(/\/?$/, '/');
      channel = new WebSocket(base + 'api/kernels/' + %(kernel_json)s + '/channels?session_id=' + session +
        (config.token ? '&token=' + encodeURIComponent(config.token) : ''));
      channel.onerror = function () { el.dataset.sent = 'failed'; };
      channel.onopen = function () { flush(); };
    }
    flush();
  }
  function flush() {
    if (!channel || channel.readyState !== 1) return;
    while (queued.length) channel.send(queued.shift());
    el.dataset.sent = 'channel';
  }
  if (!window.brookglWidget) { el.textContent = 'brookgl is not loaded in this page: run brookgl.load() first (and trust the notebook)'; return; }
  window.brookglWidget.default.render({ model: model, el: el });
})();
</script>
"""


class HtmlRun:
    """What ``html_run``/``html_embed`` return: shows itself as an HTML output; ``result(name)``,
    ``trace``, ``status``, ``error``, ``renderer`` and ``state`` fill in when the page answers."""

    def __init__(self, state: Dict[str, Any]):
        self.id = "brookgl-" + uuid.uuid4().hex[:12]
        self._state = state
        self.status = "pending"
        self.error = ""
        self.renderer = ""
        self.trace: list = []
        self.state: Dict[str, Any] = {}
        self._results: Dict[str, Any] = {}
        self.comm = _register_comm_target()
        _RUNS[self.id] = self

    def _repr_html_(self) -> str:
        state = dict(self._state)
        if "arrays" in state:
            state["arrays"] = {
                k: {**v, "data": base64.b64encode(v["data"]).decode("ascii")} for k, v in state["arrays"].items()
            }
        return _CLIENT % {
            "id": self.id,
            "id_json": json.dumps(self.id),
            "state": json.dumps(state).replace("</", "<\\/"),
            "target": json.dumps(COMM_TARGET),
            "kernel_json": json.dumps(_kernel_id()),
        }

    def _receive(self, data: Dict[str, Any], buffers) -> None:
        self.status = data.get("status", "")
        self.error = data.get("error", "")
        self.renderer = data.get("renderer", "")
        self.trace = data.get("trace", [])
        self.state = data.get("state", {})
        self._results = {
            name: {"dtype": m["dtype"], "shape": m["shape"], "data": buffers[m["buffer"]]}
            for name, m in data.get("results", {}).items()
        }

    def result(self, name: str):
        """The output ``name`` as a numpy array, once the page has sent it back."""
        if self.status == "error":
            raise RuntimeError(f"brookgl: the kernel failed in the browser: {self.error}")
        if name not in self._results:
            raise LookupError(
                f"brookgl: no result {name!r} yet (status {self.status}); results come back where the page can reach "
                "the kernel (classic Notebook, Notebook 7, JupyterLab); run this cell again once the output shows"
            )
        return result_array(self._results[name])


def html_run(source: str, *, outputs: Dict[str, Any], kernel: Optional[str] = None, show: bool = True, **args) -> HtmlRun:
    """A Brook kernel on numpy arrays, in a plain HTML output (arguments as for ``brookgl.Run``)."""
    arrays, uniforms, iters = split_args(args)
    return HtmlRun({
        "kind": "run", "source": source, "kernel": kernel or "", "arrays": arrays, "uniforms": uniforms,
        "iters": iters, "outputs": output_shapes(outputs), "show": show, "request": 0,
    })


def html_embed(demo: str = "filter", **options) -> HtmlRun:
    """A live demo in a plain HTML output; ``state`` comes back once it is ready (Jupyter servers)."""
    return HtmlRun({"kind": "embed", "options": {"demo": demo, **options}})
