// Exclusive from inclusive: the running sum of the records strictly to the left.
sum = src(brook_index - 1);
