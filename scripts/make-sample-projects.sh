#!/usr/bin/env bash
# Regenerates the sidecar files (communication matrices and pins) of the sample projects with
# meridian-cli, so that every matrix in sample_projects/ is traceable to one command line.
# Usage: scripts/make-sample-projects.sh [path/to/meridian-cli]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cli=${1:-$here/build/app/meridian-cli}
gen() { "$cli" generate "$@" > /dev/null; }

# SC17 on EC2: 4 regions x 16 instances, 64 processes, constraint ratio 0.2 (Section 5.1).
d=$here/sample_projects/ec2-4-regions
seed=1
for app in lu bt sp kmeans dnn; do
    gen "$app" --processes 64 --out "$d/$app.volume.mtx" --messages-out "$d/$app.messages.mtx"
    gen constraints --processes 64 --ratio 0.2 --seed $seed --sites "$d/sites.csv" --out "$d/$app.pins.csv"
    seed=$((seed + 1))
done

# SC17 Table 3 on Azure: 3 regions x 16 instances, 48 processes.
d=$here/sample_projects/azure-3-regions
seed=1
for app in lu ft kmeans dnn; do
    gen "$app" --processes 48 --out "$d/$app.volume.mtx" --messages-out "$d/$app.messages.mtx"
    gen constraints --processes 48 --ratio 0.2 --seed $seed --sites "$d/sites.csv" --out "$d/$app.pins.csv"
    seed=$((seed + 1))
done

# CloudMap: 8 A7 instances x 8 cores, 64 tasks of NPB-like applications, no constraints.
d=$here/sample_projects/cloudmap-a7
for app in bt lu sp cg ft mg; do
    gen "$app" --processes 64 --out "$d/$app.volume.mtx" --messages-out "$d/$app.messages.mtx"
done

# Geo-Cut on EC2: SNAP's Wiki-Vote (copied unchanged as wiki-vote.txt) and its homes (wiki-vote.homes.tsv: each
# vertex, in increasing id, gets random.Random(1).choice of the eight regions in the project's order, as the file's
# header says). The project's "graphs" entry (checksums, statistics) is what this command prints:
#   meridian-cli project import-graph P wiki-vote.txt --name wiki-vote --homes wiki-vote.homes.tsv
