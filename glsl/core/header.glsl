#version 300 es
// Every brookgl shader starts here (kernels and pass stages): GLSL ES 3.00, all precisions high.
precision highp float;
precision highp int;
precision highp sampler2D;
precision highp isampler2D;
precision highp usampler2D;
precision highp sampler2DArray;
