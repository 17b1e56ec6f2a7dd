# only comments
