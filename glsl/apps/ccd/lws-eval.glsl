// Pass C, evalCollision, lazily (da Silva et al. Algorithm 1's inner loop): thread t of block b
// takes the nodes the plan popped for it (t, t + T, t + 2T, ... of the block's pop: from the
// stack's top p.x, then p.w from the plan's second source) and traverses on its own: up to
// `steps` BVTT nodes, depth first, on a local stack (a GLSL array: the fragment's counterpart of
// the block's shared-memory stack), taking its next popped node only when that stack is empty.
// Front nodes go to its four front outputs (fr0-fr3) until they are full; a node is stepped only
// where its children (up to 3) fit the local stack beside the nodes not yet taken. What is left
// (the local stack, then the nodes not taken) is the excess, handed to the block (kids0-kids2,
// two nodes each; pass D's prefix places it, pass R writes it onto the block's stack in its
// ring, pass E moves the stack's overflow to the deque). cnt = (excess nodes, nodes stepped, 0,
// 0). top(b): the block's pointers after popTop (its stack size and ring bottom).
const int LWS_LOCAL = 6;
int b = brook_index / threads, t = brook_index - b * threads;
ivec4 p = plan(b);
int total = p.x + p.w;
int mine = t < total ? (total - t + threads - 1) / threads : 0;
ivec2 st[LWS_LOCAL];
ivec4 f[4];
for (int k = 0; k < 4; k++) f[k] = ivec4(-1, -1, 0, 0);
int sp = 0, taken = 0, stepped = 0, nf = 0;
for (int s = 0; s < steps; s++) {
  if (sp == 0) {
    if (taken == mine) break;
    st[0] = lwsPopped(b, p, t + taken * threads);
    sp = 1;
    taken++;
  }
  // room for this node's children beside the nodes not taken yet, and for a front node
  if (nf == 4 || sp + 2 + mine - taken > LWS_LOCAL) break;
  sp--;
  ivec2 node = st[sp];
  ivec2 c[3];
  int front;
  int n = bvttStep(node.x, node.y, c, front);
  stepped++;
  if (n > 0) {
    for (int k = 0; k < 3; k++) if (k < n) { st[sp] = c[k]; sp++; }
  } else {
    f[nf] = ivec4(node, front, 0);
    nf++;
  }
}
ivec2 e[LWS_LOCAL];
int ne = 0;
for (int k = 0; k < LWS_LOCAL; k++) if (k < sp) { e[ne] = st[k]; ne++; }
for (int i = 0; i < LWS_LOCAL; i++) if (taken + i < mine) { e[ne] = lwsPopped(b, p, t + (taken + i) * threads); ne++; }
for (int k = 0; k < LWS_LOCAL; k++) if (k >= ne) e[k] = ivec2(-1);
kids0 = ivec4(e[0], e[1]);
kids1 = ivec4(e[2], e[3]);
kids2 = ivec4(e[4], e[5]);
fr0 = f[0];
fr1 = f[1];
fr2 = f[2];
fr3 = f[3];
cnt = ivec4(ne, stepped, 0, 0);
