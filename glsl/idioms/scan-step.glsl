// One Hillis-Steele step (Horn's Scan with an integer index): add the record `offset` to the
// left. `src` is a gather, `sum` the output; integer streams stay exact.
sum = src(brook_index);
if (brook_index >= offset) sum += src(brook_index - offset);
