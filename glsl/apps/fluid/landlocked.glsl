// Listing 34-1 (GPU Gems 2 ch. 34) in GLSL: sums the four neighbours' obstacle values and
// discards cells that are not landlocked; the cells left get depth 0.0 in the z mask.
ivec2 coords = brook_pos;
// get neighbouring boundary values (on or off)
vec4 bounds;
bounds.x = obstacleGrid(coords - ivec2(1, 0));
bounds.y = obstacleGrid(coords + ivec2(1, 0));
bounds.z = obstacleGrid(coords - ivec2(0, 1));
bounds.w = obstacleGrid(coords + ivec2(0, 1));
bounds.x = dot(bounds, vec4(1.0)); // add them up
// discard cells that are not landlocked
if (bounds.x < 4.0) discard;
unused = 0.0;
