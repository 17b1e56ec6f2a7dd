# bad token
0 1
0 x
