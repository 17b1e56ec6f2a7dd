# python3 sw.py GRAPHFILE GROUP "ALGO;ALGO" NAME SOURCES REPS > FILE.json: a near-far A/B bench on cuda, every run checked.
import json,sys
f,g,algos,name,ns,reps=sys.argv[1],sys.argv[2],sys.argv[3].split(';'),sys.argv[4],int(sys.argv[5]),int(sys.argv[6])
print(json.dumps({"name":name,"description":"near-far solo queue A/B, issue 30 session 39","kind":"sweep",
"graphs":[{"file":f,"group":g}],"algorithms":algos,"devices":["cuda"],"block":{"all":[256]},
"cache":["default"],"repetitions":reps,"sources":{"random":{"count":ns,"seed":1}},
"baseline":{"algorithm":algos[0],"device":"cuda"}}))
