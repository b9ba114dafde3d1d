#!/usr/bin/env python3
"""Interleaved A/B of bench builds, Microburst only, one fresh JVM per run.

python3 ab.py ROUNDS WORKLOADS OUT BUILD_DIR... ; WORKLOADS a comma list of bench workloads; each BUILD_DIR holds
microburst-bench-0.1.0-SNAPSHOT.jar and lib/ from `mvn -B -pl microburst-bench -am package -DskipTests` of one commit.
The builds' order rotates by round, so drift touches each alike. Each run: 5 s warm-up, 10 s measured; the load
average at its start is recorded. Writes OUT/all.csv (one row per run); summarize.py OUT/all.csv prints medians.
"""
import csv, os, subprocess, sys, statistics, time
rounds, workloads, out = int(sys.argv[1]), sys.argv[2].split(','), sys.argv[3]
builds = sys.argv[4:]
os.makedirs(out, exist_ok=True)
rows = []
for r in range(1, rounds + 1):
    order = builds[(r - 1) % len(builds):] + builds[:(r - 1) % len(builds)]
    for w in workloads:
        for b in order:
            name = os.path.basename(b.rstrip('/'))
            d = f"{out}/{name}-{w}-r{r}"
            load = open('/proc/loadavg').read().split()[0]
            subprocess.run(['java', '-cp', f'{b}/microburst-bench-0.1.0-SNAPSHOT.jar:{b}/lib/*', 'io.microburst.bench.BenchMain',
                            '--only', w, '--runtimes', 'microburst', '--rounds', '1', '--warmup', '5', '--measure', '10',
                            '--out', d], stdout=open(d + '.log', 'w'), stderr=subprocess.STDOUT)
            try:
                rec = list(csv.DictReader(open(f'{d}/runs.csv')))[0]
            except Exception as e:
                rec = {'error': str(e)}
            rec.update(build=name, workload=w, round=r, load=load)
            rows.append(rec)
            print(name, w, r, load, {k: rec.get(k) for k in ('throughput', 'cpu_cores', 'p50_us', 'p99_us')}, flush=True)
with open(f'{out}/all.csv', 'w') as f:
    keys = sorted({k for x in rows for k in x})
    wr = csv.DictWriter(f, keys); wr.writeheader(); wr.writerows(rows)
