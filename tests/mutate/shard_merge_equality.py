#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb mutate FILE --shard 1/N .. N/N, then --merge: the merged result
holds the same mutants with the same verdicts as one run of the whole file.
And --update of a stale copy of the whole run (some killed mutants marked
survived, some left out as if their lines were not covered then) gives the
whole run's verdicts again.

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

    with open(whole) as f:
        stale = json.load(f)
    killed = [c for c in stale['mutants'] if c['status'] == 'killed']
    for c in killed[::7]:
        c['status'] = 'survived'
    gone = {id(c) for c in killed[3::11]}
    stale['mutants'] = [c for c in stale['mutants'] if id(c) not in gone]
    stale_js, updated = os.path.join(out, 'stale.json'), os.path.join(out, 'updated.json')
    with open(stale_js, 'w') as f:
        json.dump(stale, f)
    run(kfile, '-j', '1', '--update', stale_js, '--json', updated)
    (tu, u) = verdicts(updated)
    with open(updated) as f:
        carried = sum(1 for c in json.load(f)['mutants'] if c.get('carried'))
    print(f'updated: {len(u)} mutants of {tu}, {carried} verdicts carried over, '
          f'{len(u) - carried} run')
    # the stale copy's survivors and equivalents run again, the rest carry
    expect = sum(1 for c in stale['mutants'] if c['status'] not in ('survived', 'equivalent',
                                                                        'unobservable'))
    if (tu, u) != (tw, w) or carried != expect:
        sys.exit('--update of the stale copy differs from the whole run')
    print('--update of a stale copy == whole run')


if __name__ == '__main__':
    main()
