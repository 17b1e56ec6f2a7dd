# Writes the call's experiment files: python3 sw.py GRAPH "ALGO;ALGO;..." NAME > FILE.json
# (ab-*.json: the auto Δ alone; d-*.json: the auto Δ and pinned widths). 2 random sources (seed 1) x 5 runs.
import json,sys
g,algos,name=sys.argv[1],sys.argv[2].split(';'),sys.argv[3]
print(json.dumps({"name":name,"description":"near-far A/B, issue 30 session 38","kind":"sweep",
"graphs":[{"file":f"/tmp/g/{g}.wel","group":g}],"algorithms":algos,"devices":["cuda"],"block":{"all":[256]},
"cache":["default"],"repetitions":5,"sources":{"random":{"count":2,"seed":1}},
"baseline":{"algorithm":algos[0],"device":"cuda"}}))
