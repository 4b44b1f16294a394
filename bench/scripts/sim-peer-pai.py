#!/usr/bin/python3
"""Times Alibaba PAI's GPU-cluster simulator (clusterdata, cluster-trace-gpu-v2020/simulator) on a trace the
Continuum simulator also replays, one policy at a time, in one Python process (as its run_simulator.py does).

  bench/scripts/sim-peer-pai.py PAI_SIMULATOR_DIR TRACE.csv [--policies FIFO,SJF] [--gpus 6504] [--nodes 1]

PAI_SIMULATOR_DIR: the simulator folder of your own checkout of that repository (not part of this project).
TRACE.csv: the simulator's CSV (`java -jar ...-simulator.jar --synthetic N --write-trace TRACE.csv ...`); it is
converted to the peer's columns (job_id,user,submit_time,duration,num_gpu,num_cpu,num_inst and the duration
estimates its SJU/SJG/SJGG policies sort by, here the job's own duration) next to it. --nodes 1 is the peer's
published "one big node" formulation (6500g_1n); --nodes 813 gives it 813 nodes of 8 GPUs and 96 CPUs like ours,
with jobs over 8 GPUs as gangs of 8-GPU instances. The peer steps time one second at a time, so its cost grows
with the trace's span, not only with its job count. Needs python3-numpy and python3-matplotlib (Debian).
"""
import argparse
import csv
import os
import sys
import time

POLICIES = {'SJF': 0, 'SJU': 1, 'SJG': 2, 'SJGG': 4, 'FIFO': 8}


def convert(src, dst, nodes):
    with open(src, newline='') as fin, open(dst, 'w', newline='') as fout:
        out = csv.writer(fout)
        out.writerow(['job_id', 'user', 'submit_time', 'duration', 'num_gpu', 'num_cpu', 'num_inst',
                      'user_dur', 'group_dur', 'group_gpu_dur'])
        for i, row in enumerate(csv.DictReader(fin)):
            gpus = int(row['gpus'])
            cpus = max(1, int(row.get('cpu_milli') or 0) // 1000)
            inst = 1
            if nodes > 1 and gpus > 8:  # the peer's gangs: instances that each fit one node
                inst, gpus, cpus = gpus // 8, 8, cpus // (gpus // 8)
            out.writerow([i, row.get('user') or 'u', row['arrival'], row['duration'], gpus, cpus, inst,
                          row['duration'], row['duration'], row['duration']])


def main():
    p = argparse.ArgumentParser()
    p.add_argument('peer_dir')
    p.add_argument('trace')
    p.add_argument('--policies', default='FIFO,SJF')
    p.add_argument('--gpus', type=int, default=6504)
    p.add_argument('--nodes', type=int, default=1)
    a = p.parse_args()
    sys.path.insert(0, os.path.abspath(a.peer_dir))
    t0 = time.time()
    c0 = time.process_time()
    from simulator import Simulator  # the peer's own code, from the checkout given
    import logging
    logging.basicConfig(level=logging.WARNING, format='%(message)s', filename=os.devnull)
    print('peer import: %.2f s wall, %.2f s CPU' % (time.time() - t0, time.process_time() - c0), flush=True)
    converted = a.trace + '.pai.csv'
    convert(a.trace, converted, a.nodes)
    with open(converted) as f:
        jobs = sum(1 for _ in f) - 1
    print('policy,jobs,avg_jct_s,makespan_s,wall_s,cpu_s', flush=True)
    for name in a.policies.split(','):
        t0 = time.time()
        c0 = time.process_time()
        sim = Simulator(csv_file=converted, alloc_policy=POLICIES[name], preempt_policy=2,
                        sort_node_policy=3, num_nodes=a.nodes, random_seed=42, max_time=int(1e9),
                        num_spare_node=0, pattern=0, hetero=False, num_gpus=a.gpus,
                        num_cpus=round(23.22 * a.gpus) if a.nodes == 1 else None,
                        arrival_rate=-1, num_jobs_limit=jobs, gpu_type_matching=0, verbose=0)
        (done, jct, wait, makespan), = sim.simulator_go(repeat=1)
        print('%s,%d,%.1f,%.0f,%.2f,%.2f' % (name, done, jct, makespan, time.time() - t0, time.process_time() - c0),
              flush=True)


if __name__ == '__main__':
    main()
