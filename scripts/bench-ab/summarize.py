"""Medians, spread, cores and throughput per core per (workload, build) of ab.py's all.csv: python3 summarize.py OUT/all.csv"""
import csv, sys, statistics as st
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    if r.get('status') != 'ok': continue
    by.setdefault((r['workload'], r['build']), []).append(r)
for (w, b), rs in sorted(by.items()):
    t = [float(r['throughput']) / 1e6 for r in rs]
    c = [float(r['cpu_cores']) for r in rs]
    pc = [x / y for x, y in zip(t, c)]
    p99 = [r['p99_us'] for r in rs if r['p99_us']]
    print(f"{w:16} {b:8} median {st.median(t):6.2f}M ({', '.join(f'{x:.2f}' for x in t)}) spread {max(t)/min(t):.2f} "
          f"cores {st.median(c):.2f} per-core {st.median(pc):6.2f}M" + (f" p99 {min(map(float,p99)):.1f}-{max(map(float,p99)):.1f}us" if p99 else ''))
