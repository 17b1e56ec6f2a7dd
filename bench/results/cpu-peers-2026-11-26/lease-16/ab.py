#!/usr/bin/env python3
"""Rounds of call 4: per round, baseline median ms / helper-fold median ms per graph, hand-off k
and thread count; median of the rounds and a bootstrap 90 % interval. Usage: ab.py call4/ab"""
import csv,statistics as st,sys,glob,random,re,os
from collections import defaultdict
d=sys.argv[1]
ratios=defaultdict(list)  # (graph,k,threads) -> per-round ratio bheap/fold
bad=0; total=0
for f in sorted(glob.glob(d+'/r*-k*/results.csv')):
  m=re.search(r'r(\d+)-k(\d+)',f); r,k=int(m[1]),int(m[2])
  rows=[x for x in csv.DictReader(open(f)) if x['total_ms']]
  for x in rows:
    total+=1; bad+= x['correct']!='true'
  g=defaultdict(list)
  for x in rows: g[(x['graph'],x['algorithm'],int(x['threads'] or 1))].append(float(x['total_ms']))
  for (gr,a,t),v in g.items():
    if a=='helper-fold':
      b=st.median(g[(gr,'dijkstra-bheap',1)])
      ratios[(gr[:22],k,t)].append(b/st.median(v))
print('rows',total,'not correct',bad)
def boot(v,B=2000):
  ms=sorted(st.median(random.choices(v,k=len(v))) for _ in range(B)); return ms[int(.05*B)],ms[int(.95*B)]
random.seed(1)
for key in sorted(ratios):
  v=ratios[key]; lo,hi=boot(v)
  print(key, 'rounds',len(v),'median speedup %.3f'%st.median(v),'90%% %.3f-%.3f'%(lo,hi), 'rounds:',' '.join('%.2f'%x for x in v))
