// Pass G's fragment: the pushed element (the oldest of the block's sequence, lwsElement).
uniform int threads;
uniform int stackCap;
uniform int group;
flat in ivec2 lws_bj;
layout(location = 0) out ivec4 dequeOut;
