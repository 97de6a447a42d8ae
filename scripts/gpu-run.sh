#!/usr/bin/env bash
# Runs a command on the GPU machine (see docs/maintainers.md, "On a remote GPU machine"): fonts for Chromium, then the
# shared pack's on-gpu.sh (Node on PATH, CHROME_PATH, GPU_CHROME_FLAGS), then the command.
#   bash scripts/gpu-run.sh node dist/node/test.mjs --gpu
# Chromium aborts (SkFontMgr "Not implemented") as soon as a page lays out text on a machine
# with no fontconfig setup, so the fonts in .gpu/fonts (copied there from this machine) are
# announced to it through FONTCONFIG_FILE.
set -u
if [ -d .gpu/fonts ]; then
  mkdir -p /tmp/brookgl-fc
  printf '<?xml version="1.0"?>\n<fontconfig><dir>%s/.gpu/fonts</dir><cachedir>/tmp/brookgl-fc</cachedir></fontconfig>\n' "$PWD" > /tmp/brookgl-fonts.conf
  export FONTCONFIG_FILE=/tmp/brookgl-fonts.conf
fi
exec bash .gpu/on-gpu.sh "$@"
