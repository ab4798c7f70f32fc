#!/usr/bin/env bash
# Checks Meridian's predicted run time and its recommended placement against real Open MPI runs.
#
# Four "sites" are Linux network namespaces on this machine, each behind a veth link shaped with tc tbf (400, 200,
# 100 and 50 Mbit/s by default, both directions), joined by a bridge in a fifth "hub" namespace. Open MPI runs 8
# ranks over TCP, 2 per site, of a 2-D halo exchange with 1-4 MiB messages and uneven weights (halo.c). The script
# then does what a user does:
#   1. measures the network with meridian-probe under mpirun (one rank per site; then the two ranks of each site
#      for the intra-site entries) and imports it into a project (`project import-probe`);
#   2. captures the application with `meridian-cli capture --trace`;
#   3. maps it with 12 placements (5 random seeds, round-robin, interleave, greedy, geo, scotch-bw, refine's
#      default, refine with objective=alpha-beta), predicts each (`predict --trace`) and runs it for real 3 times
#      with the rankfile `map --rankfile` exported (`mpirun --rankfile`), timed by rank 0;
#   4. prints one line: RESULT spearman=... median_rel_error=... refine_over_fastest=... alphabeta_over_fastest=...
#
# Usage (root; iproute2, tc, Open MPI, python3):  tests/netns/real_run.sh
# Environment:
#   MERIDIAN_CLI, MERIDIAN_PROBE   the binaries (default: build/app/ of this checkout)
#   NETNS_RATES      the sites' link rates in Mbit/s (default "400 200 100 50")
#   NETNS_STEPS      halo steps per run (default 3), NETNS_BASE its base message size (default 1 MiB)
#   NETNS_REPS       real runs per placement, the median kept (default 3)
#   NETNS_MPI_ARGS   extra mpirun arguments for the real runs, e.g. "--mca btl_tcp_eager_limit 4194304"
#   NETNS_KEEP=1     keep the work folder (its path is printed) for a closer look
# Exit status: 0 when it ran (whatever it measured), 77 when it cannot run here (not root, a tool missing: CTest's
# SKIP_RETURN_CODE), anything else when it failed.
#
# How Open MPI launches ranks in other network namespaces (what works, found by trying):
#   - mpirun itself runs inside the hub namespace (ip netns exec), so that its out-of-band TCP listens on the
#     bridge's address (10.77.0.254) that every site can reach;
#   - the hostfile and rankfiles name one host per site; each name resolves inside our namespaces through
#     /etc/netns/<ns>/hosts (ip netns exec binds it over /etc/hosts), so nothing of the machine's own is changed;
#   - `--mca plm_rsh_agent` is a small script written here (nsrsh) that Open MPI's rsh launcher calls as
#     "nsrsh HOST orted ...": it runs the command in that host's namespace with `ip netns exec`, under
#     `unshare --uts` with the hostname set to HOST. Every namespace shares the machine's hostname otherwise, so
#     MPI_Get_processor_name would give one name for all sites and meridian-probe would see a single host;
#   - `--mca plm_rsh_no_tree_spawn 1`: mpirun starts every orted itself (no orted starts another);
#   - `--mca btl tcp,self` (no shared memory: the two ranks of a site talk over TCP on the site's loopback, the
#     others through the shaped veth links), `--mca btl_tcp_if_include` and `--mca oob_tcp_if_include` with the
#     namespaces' subnet, so neither data nor control traffic looks for another interface.
#   Open MPI warns "plm:rsh: Warning: setpgid(...) failed": harmless (the orted runs in a new namespace's
#   process tree).
set -euo pipefail

PREFIX=mrn                 # every namespace this script makes is named mrn-*: found and removed by that prefix
NET=10.77.0                # private addresses, only inside those namespaces
HUB=$PREFIX-hub
TIMING_LOCK=/tmp/meridian-timing.lock

skip() {
    echo "SKIP: $*"
    exit 77
}
[[ $(id -u) -eq 0 ]] || skip "needs root (network namespaces and tc)"
for tool in ip tc mpirun mpicc unshare python3; do
    command -v "$tool" >/dev/null || skip "$tool is not installed"
done

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
CLI=${MERIDIAN_CLI:-$repo/build/app/meridian-cli}
PROBE=${MERIDIAN_PROBE:-$repo/build/app/meridian-probe}
for bin in "$CLI" "$PROBE"; do
    [[ -x $bin ]] || { echo "error: $bin is not built (cmake --build build --target meridian-cli meridian-probe)" >&2; exit 1; }
done
read -r -a RATES <<<"${NETNS_RATES:-400 200 100 50}"
STEPS=${NETNS_STEPS:-3}
BASE=${NETNS_BASE:-1048576}
REPS=${NETNS_REPS:-3}
read -r -a MPI_EXTRA <<<"${NETNS_MPI_ARGS:-}"
SITES=${#RATES[@]}

# Removes every namespace of ours and its /etc/netns folder. Processes still inside one (an mpirun cut short) are
# ours: they are stopped first, by their ids, since a namespace lives on while a process holds it.
teardown() {
    local ns pids
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^$PREFIX-(hub|s[0-9]+)$" || true); do
        pids=$(ip netns pids "$ns" 2>/dev/null || true)
        if [[ -n $pids ]]; then
            kill $pids 2>/dev/null || true
            sleep 1
            kill -9 $(ip netns pids "$ns" 2>/dev/null) 2>/dev/null || true
        fi
        ip netns del "$ns" 2>/dev/null || true
    done
    rm -rf /etc/netns/"$PREFIX"-hub /etc/netns/"$PREFIX"-s[0-9]* 2>/dev/null || true
}
work=$(mktemp -d /tmp/meridian-netns.XXXXXX)
finish() {
    teardown
    if [[ ${NETNS_KEEP:-0} == 1 ]]; then echo "work folder kept: $work"; else rm -rf "$work"; fi
}
trap finish EXIT
trap 'exit 130' INT   # exit runs the EXIT trap: the namespaces go whatever stopped the script
trap 'exit 143' TERM

# ---- the sites --------------------------------------------------------------------------------------------------
teardown # leftovers of a run that was killed with -9
ip netns add "$HUB"
ip -n "$HUB" link set lo up
ip -n "$HUB" link add br0 type bridge
ip -n "$HUB" addr add "$NET.254/24" dev br0
ip -n "$HUB" link set br0 up
hosts="127.0.0.1 localhost"$'\n'"$NET.254 $HUB"
for ((i = 0; i < SITES; ++i)); do hosts+=$'\n'"$NET.$((i + 1)) $PREFIX-s$i"; done
for ((i = 0; i < SITES; ++i)); do
    ns=$PREFIX-s$i
    ip netns add "$ns"
    ip -n "$ns" link set lo up
    ip link add "v$i" netns "$HUB" type veth peer name eth0 netns "$ns"
    ip -n "$ns" addr add "$NET.$((i + 1))/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$HUB" link set "v$i" master br0
    ip -n "$HUB" link set "v$i" up
    # The site's uplink (its eth0's egress) and downlink (the hub port's egress), each at the site's rate. A 64 KB
    # bucket holds one GSO segment; 200 ms of queue so that TCP is not cut by drops (no netem: no added delay).
    ip netns exec "$ns" tc qdisc add dev eth0 root tbf rate "${RATES[$i]}mbit" burst 64kb latency 200ms
    ip netns exec "$HUB" tc qdisc add dev "v$i" root tbf rate "${RATES[$i]}mbit" burst 64kb latency 200ms
    mkdir -p "/etc/netns/$ns"
    echo "$hosts" >"/etc/netns/$ns/hosts"
done
mkdir -p "/etc/netns/$HUB"
echo "$hosts" >"/etc/netns/$HUB/hosts"

# Open MPI's rsh agent: "nsrsh HOST COMMAND..." runs COMMAND in HOST's namespace, under its own hostname.
cat >"$work/nsrsh" <<EOF
#!/bin/sh
host=\$1
shift
case "\$host" in $PREFIX-s[0-9]*) ;; *) echo "nsrsh: not a site of this run: \$host" >&2; exit 1 ;; esac
exec ip netns exec "\$host" unshare --uts sh -c 'hostname "\$0" && exec sh -c "\$1"' "\$host" "\$*"
EOF
chmod +x "$work/nsrsh"
: >"$work/hostfile"
for ((i = 0; i < SITES; ++i)); do echo "$PREFIX-s$i slots=2" >>"$work/hostfile"; done
MPIRUN=(ip netns exec "$HUB" mpirun --allow-run-as-root --oversubscribe --mca plm_rsh_agent "$work/nsrsh"
        --mca plm_rsh_no_tree_spawn 1 --mca btl tcp,self --mca btl_tcp_if_include "$NET.0/24"
        --mca oob_tcp_if_include "$NET.0/24")
RANKS=$((2 * SITES))
cd "$work"
mpicc -O2 -o halo "$here/halo.c"

# Runs "$@" holding the timing lock, so that no other benchmark's timed runs share the 2 cores with ours (the lock's
# descriptor is closed for the command: nothing it leaves behind keeps the lock).
timed() {
    { flock 9 && "$@" 9>&-; } 9>>"$TIMING_LOCK"
}

# ---- the network, measured ----------------------------------------------------------------------------------------
# Between sites: one rank per site. 5 repetitions of 4 MB instead of 20 keep it under a minute at 50 Mbit/s.
echo "measuring the network with meridian-probe ..."
timed "${MPIRUN[@]}" --hostfile hostfile -np "$SITES" --map-by node "$PROBE" --out net \
    --large-reps 5 --small-reps 300 2> >(grep -v setpgid >&2)
# Within each site (its two ranks, over the namespace's loopback): the probe between ranks of one host.
: >probe-sites.csv
for ((i = 0; i < SITES; ++i)); do echo "$PREFIX-s$i,site$i" >>probe-sites.csv; done
for ((i = 0; i < SITES; ++i)); do
    timed "${MPIRUN[@]}" -np 2 --host "$PREFIX-s$i:2" "$PROBE" --per-rank --sites probe-sites.csv --out "intra$i" \
        --large-reps 5 --small-reps 300 2> >(grep -v setpgid >&2)
done

# Two projects of the same probe results. "declared": the sites file also states each site's uplink and downlink
# (up_MBps, down_MBps): the shaped rate's TCP payload (1448 of every 1514 bytes tbf counts), as a user states the
# capacity of a site's link. "probe": the pairs alone; Meridian then takes a site's uplink as its fastest pair.
{
    echo "name,lat,lon,nodes,slots,up_MBps,down_MBps"
    for ((i = 0; i < SITES; ++i)); do
        mbps=$(python3 -c "print(round(${RATES[$i]} / 8 * 1448 / 1514, 3))")
        echo "site$i,$((40 + i)),$((2 + 3 * i)),1,2,$mbps,$mbps"
    done
} >sites-declared.csv
cut -d, -f1-5 sites-declared.csv >sites-probe.csv
{
    echo "host,site,slots"
    for ((i = 0; i < SITES; ++i)); do echo "$PREFIX-s$i,site$i,2"; done
} >hosts.csv
for kind in declared probe; do
    "$CLI" project create "$kind.meridian" --name "netns $kind" --sites "sites-$kind.csv" --hosts hosts.csv >/dev/null
    "$CLI" project import-probe "$kind.meridian" net >/dev/null
    for ((i = 0; i < SITES; ++i)); do "$CLI" project import-probe "$kind.meridian" "intra$i" >/dev/null; done
done

# ---- the application, captured ------------------------------------------------------------------------------------
echo "capturing halo ($RANKS ranks, $STEPS steps, base $BASE bytes) ..."
timed ip netns exec "$HUB" "$CLI" capture --out app --trace -- "${MPIRUN[@]:4}" --hostfile hostfile -np "$RANKS" \
    ./halo "$STEPS" "$BASE" 2> >(grep -v setpgid >&2)
for kind in declared probe; do
    "$CLI" project add-application "$kind.meridian" --name halo --volume app.volume.mtx --messages app.messages.mtx \
        >/dev/null
done

# ---- placements: predicted, then measured -------------------------------------------------------------------------
placements=()
mapit() { # NAME ARGS...: a mapping of the "declared" project, with its rankfile
    local name=$1
    shift
    "$CLI" map --project declared.meridian --application halo "$@" --out "$name.csv" --rankfile "$name.rankfile" \
        >"$name.map.json"
    placements+=("$name")
}
for seed in 1 2 3 4 5; do mapit "random$seed" --algorithm random --seed "$seed"; done
mapit round-robin --algorithm round-robin
mapit interleave --algorithm interleave
mapit greedy --algorithm greedy
mapit geo --algorithm geo
mapit scotch-bw --algorithm scotch-bw
mapit refine --algorithm refine --trace app.ti
mapit refine-ab --algorithm refine --param objective=alpha-beta

predicted() { # PROJECT MAPPING: predict's predicted_s
    "$CLI" predict --project "$1" --application halo --mapping "$2" --trace app.ti |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["predicted_s"])'
}
: >results.tsv
declare -A measuredOf # placement (rank -> host, as the rankfile says) -> median, so a repeated placement runs once
for name in "${placements[@]}"; do
    key=$(grep '^rank' "$name.rankfile" | sed 's/ slot=.*//' | tr '\n' ' ')
    if [[ -z ${measuredOf[$key]:-} ]]; then
        times=()
        for ((r = 0; r < REPS; ++r)); do
            out=$(timed "${MPIRUN[@]}" "${MPI_EXTRA[@]}" -np "$RANKS" --rankfile "$name.rankfile" ./halo "$STEPS" \
                "$BASE" 2> >(grep -v setpgid >&2))
            t=$(sed -n 's/^TIME //p' <<<"$out")
            [[ -n $t ]] || { echo "error: halo printed no TIME under $name: $out" >&2; exit 1; }
            times+=("$t")
        done
        measuredOf[$key]=$(printf '%s\n' "${times[@]}" | sort -g | sed -n "$(((REPS + 1) / 2))p")
        echo "  $name: measured ${times[*]}"
    fi
    declared=$(predicted declared.meridian "$name.csv") # (an assignment, so that a failed predict stops the script)
    probeOnly=$(predicted probe.meridian "$name.csv")
    printf '%s\t%s\t%s\t%s\n' "$name" "$declared" "$probeOnly" "${measuredOf[$key]}" >>results.tsv
done

# ---- the figures --------------------------------------------------------------------------------------------------
python3 - results.tsv "$STEPS" "$BASE" "${RATES[*]}" <<'EOF'
import statistics, sys
rows = [line.split("\t") for line in open(sys.argv[1]).read().splitlines()]
names = [r[0] for r in rows]
declared, probe, measured = ([float(r[k]) for r in rows] for k in (1, 2, 3))

def ranks(v):  # average ranks for ties (Spearman's rho on ties)
    order = sorted(range(len(v)), key=lambda i: v[i])
    out = [0.0] * len(v)
    i = 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out

def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.mean(ra), statistics.mean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    den = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return cov / den if den else float("nan")

def rel_error(p):
    return statistics.median(abs(x - m) / m for x, m in zip(p, measured))

print(f"{'placement':12} {'predicted_s':>12} {'probe-only_s':>12} {'measured_s':>11} {'measured/pred':>13}")
for n, d, p, m in zip(names, declared, probe, measured):
    print(f"{n:12} {d:12.3f} {p:12.3f} {m:11.3f} {m / d:13.3f}")
fastest = min(measured)
print("RESULT case=netns_halo2d sites=%d rates_mbit=%s steps=%s base_bytes=%s placements=%d spearman=%.3f "
      "median_rel_error=%.3f spearman_probe_only=%.3f median_rel_error_probe_only=%.3f "
      "refine_over_fastest=%.3f alphabeta_over_fastest=%.3f measured_over_predicted_median=%.3f"
      % (len(sys.argv[4].split()), sys.argv[4].replace(" ", "/"), sys.argv[2], sys.argv[3], len(rows),
         spearman(declared, measured), rel_error(declared), spearman(probe, measured), rel_error(probe),
         measured[names.index("refine")] / fastest, measured[names.index("refine-ab")] / fastest,
         statistics.median(m / d for m, d in zip(measured, declared))))
EOF
