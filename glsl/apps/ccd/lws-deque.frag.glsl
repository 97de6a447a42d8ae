// Pass R's fragment: the excess node the vertex placed.
flat in ivec2 lws_node;
layout(location = 0) out ivec4 dequeOut;

void main() {
  dequeOut = ivec4(lws_node, 1, 0);
}
