// The BrookGPU models of data/models (see data/models/README.md), fetched and parsed once.
import { parsePly, type PlyMesh } from '../../src/index';

const cache = new Map<string, Promise<PlyMesh>>();

/** Loads data/models/NAME.ply through the test server. */
export function loadModel(name: string): Promise<PlyMesh> {
  let m = cache.get(name);
  if (!m) {
    m = fetch(`/data/models/${name}.ply`).then(async (r) => {
      if (!r.ok) throw new Error(`could not fetch data/models/${name}.ply: ${r.status}`);
      return parsePly(await r.arrayBuffer());
    });
    cache.set(name, m);
  }
  return m;
}

/** A rigid pose: rotation by `degrees` about z, then a translation (column-major 4x4). */
export function poseZ(degrees: number, t: [number, number, number] = [0, 0, 0]): number[] {
  const c = Math.cos((degrees * Math.PI) / 180);
  const s = Math.sin((degrees * Math.PI) / 180);
  return [c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, t[0], t[1], t[2], 1];
}
