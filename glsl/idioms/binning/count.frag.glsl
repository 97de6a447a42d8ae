// Binning pass i writes i + 1 into the bin counter wherever an item lands (the load).
uniform float passNumber;
out vec4 load;

void main() { load = vec4(passNumber); }
