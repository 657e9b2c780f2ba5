#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb mutate FILE --shard 1/N .. N/N, then --merge: the merged result
holds the same mutants with the same verdicts as one run of the whole file.

usage: shard_merge_equality.py REPO FILE N OUTDIR"""
import json
import os
import subprocess
import sys


def main():
    repo, kfile, n, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    os.makedirs(out, exist_ok=True)
    tb = os.path.join(repo, 'tools', 'tb')

    def run(*args):
        print('+ tools/tb mutate ' + ' '.join(args), flush=True)
        p = subprocess.run([tb, 'mutate'] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        print(p.stdout[-3000:], flush=True)
        if p.returncode != 0:
            sys.exit(f'tools/tb mutate {" ".join(args)} exited with {p.returncode}')

    whole = os.path.join(out, 'whole.json')
    shards = [os.path.join(out, f'shard{i}.json') for i in range(1, n + 1)]
    merged = os.path.join(out, 'merged.json')
    run(kfile, '-j', '1', '--json', whole)
    for i, js in enumerate(shards, 1):
        run(kfile, '-j', '1', '--shard', f'{i}/{n}', '--json', js)
    run('--merge', *shards, '--json', merged)

    def verdicts(path):
        with open(path) as f:
            r = json.load(f)
        return r['mutants_total'], [(c['line'], c['end'], c['operator'], c['new'], c['status'])
                                    for c in r['mutants']]

    (tw, w), (tm, mg) = verdicts(whole), verdicts(merged)
    sizes = []
    for js in shards:
        with open(js) as f:
            sizes.append(len(json.load(f)['mutants']))
    print(f'whole run: {len(w)} mutants of {tw}; shards: {sizes}; merged: {len(mg)} of {tm}')
    if (tw, w) != (tm, mg):
        for x in sorted(set(w) ^ set(mg)):
            print(('only in the whole run: ' if x in set(w) else 'only in the merge: ') + repr(x))
        sys.exit('the merged shards differ from the whole run')
    if min(sizes) == 0 or sum(sizes) != len(w):
        sys.exit(f'the shards do not part the run: {sizes}')
    print('merged shards == whole run')


if __name__ == '__main__':
    main()
