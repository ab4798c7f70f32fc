/* meridian-probe: measures latency and bandwidth between the hosts of an MPI run (CloudMap's profiling phase).
 *
 *   mpirun -np N --map-by node meridian-probe --out PREFIX [--per-rank] [--sites hosts.csv]
 *          [--small-bytes 1024] [--small-reps 1000] [--large-bytes 4194304] [--large-reps 20]
 *
 * One leader rank per host takes part (--per-rank: every rank, for several ranks on one host). Every pair is
 * measured once, in the rounds of a round-robin tournament, so each participant is in one pair at a time.
 * A pair ping-pongs: latency is the median half round trip of small messages (1 KB x 1000 by default, as
 * CloudMap), bandwidth the message size over the median half round trip of large ones (4 MB), each with its
 * 10th and 90th percentiles. Rank 0 writes PREFIX.latency.csv (ms) and PREFIX.bandwidth.csv (MB/s = 10^6 B/s),
 * host (or, with --sites host,site CSV, site) names as header row and first column, and PREFIX.probe.json
 * (date, hosts, repetitions, percentiles per pair). With --sites a site pair gets the median of its host
 * pairs (the usual median, as import-probe takes it: the mean of the two middle values of an even count) (with --per-rank a line may name one rank as host/rank); an entry nobody measured stays empty. Files are written under a temporary name and renamed. */
#define _GNU_SOURCE
#include "tournament.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { NAME = MPI_MAX_PROCESSOR_NAME, STATS = 6 }; /* latency p10, p50, p90 (ms); bandwidth p10, p50, p90 */

typedef struct {
    const char* out;
    const char* sites;
    int perRank;
    long smallBytes, smallReps, largeBytes, largeReps;
} Options;

static int g_rank = 0;

static void usage(const char* message)
{
    if (g_rank == 0)
        fprintf(stderr,
                "meridian-probe: %s\n"
                "usage: mpirun -np N --map-by node meridian-probe --out PREFIX [--per-rank] [--sites hosts.csv]\n"
                "       [--small-bytes B] [--small-reps K] [--large-bytes B] [--large-reps K]\n",
                message);
}

static int parseOptions(int argc, char** argv, Options* o)
{
    *o = (Options){NULL, NULL, 0, 1024, 1000, 4 << 20, 20};
    for (int a = 1; a < argc; ++a) {
        const char* value = a + 1 < argc ? argv[a + 1] : NULL;
        long* number = !strcmp(argv[a], "--small-bytes") ? &o->smallBytes
            : !strcmp(argv[a], "--small-reps")           ? &o->smallReps
            : !strcmp(argv[a], "--large-bytes")          ? &o->largeBytes
            : !strcmp(argv[a], "--large-reps")           ? &o->largeReps
                                                         : NULL;
        if (!strcmp(argv[a], "--per-rank")) {
            o->perRank = 1;
        } else if ((!strcmp(argv[a], "--out") || !strcmp(argv[a], "--sites")) && value) {
            *(argv[a][2] == 'o' ? &o->out : &o->sites) = value;
            ++a;
        } else if (number && value) {
            char* end = NULL;
            *number = strtol(value, &end, 10);
            if (*end != '\0' || *number < 1 || *number > (1L << 30)) {
                usage("expected a whole number from 1 to 2^30 after the option");
                return 0;
            }
            ++a;
        } else {
            usage("unknown option or missing value");
            return 0;
        }
    }
    if (!o->out) {
        usage("--out PREFIX is required");
        return 0;
    }
    /* One buffer of the large size carries both kinds of message: small messages larger than it would overrun it. */
    if (o->smallBytes > o->largeBytes) {
        char message[160];
        snprintf(message, sizeof message, "--small-bytes (%ld) must not exceed --large-bytes (%ld)", o->smallBytes,
                 o->largeBytes);
        usage(message);
        return 0;
    }
    return 1;
}

static int compareDoubles(const void* a, const void* b)
{
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* The q-quantile of n sorted samples, interpolated between the two nearest (numpy's default, R's type 7): for
 * q = 0.5 the usual median, the mean of the two middle samples when n is even, as `import-probe` takes it. */
static double quantile(const double* sorted, long n, double q)
{
    const double h = (double)(n - 1) * q;
    const long below = (long)h;
    if (below + 1 >= n)
        return sorted[n - 1];
    return sorted[below] + (h - (double)below) * (sorted[below + 1] - sorted[below]);
}

/* The 10th, 50th and 90th percentiles of n samples (sorted in place). */
static void percentiles(double* samples, long n, double out[3])
{
    qsort(samples, (size_t)n, sizeof(double), compareDoubles);
    out[0] = quantile(samples, n, 0.1);
    out[1] = quantile(samples, n, 0.5);
    out[2] = quantile(samples, n, 0.9);
}

/* Half round trips of `reps` ping-pongs of `bytes` with `peer`; the initiator records them in `samples`. */
static void pingPong(MPI_Comm comm, int peer, int initiator, char* buffer, long bytes, long reps, double* samples)
{
    for (long k = -2; k < reps; ++k) { /* two warm-up exchanges */
        const double start = MPI_Wtime();
        if (initiator) {
            MPI_Send(buffer, (int)bytes, MPI_BYTE, peer, 7, comm);
            MPI_Recv(buffer, (int)bytes, MPI_BYTE, peer, 7, comm, MPI_STATUS_IGNORE);
            if (k >= 0)
                samples[k] = (MPI_Wtime() - start) / 2;
        } else {
            MPI_Recv(buffer, (int)bytes, MPI_BYTE, peer, 7, comm, MPI_STATUS_IGNORE);
            MPI_Send(buffer, (int)bytes, MPI_BYTE, peer, 7, comm);
        }
    }
}

/* Measures this participant's pairs, round by round; fills row[peer * STATS ...] for the pairs it initiated. */
static void measure(MPI_Comm comm, const Options* o, double* row)
{
    int me = 0, n = 0;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    const long reps = o->smallReps > o->largeReps ? o->smallReps : o->largeReps;
    char* buffer = calloc((size_t)o->largeBytes, 1);
    double* samples = malloc(sizeof(double) * (size_t)reps);
    if (!buffer || !samples) {
        fprintf(stderr, "meridian-probe: out of memory for %ld-byte messages\n", o->largeBytes);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int round = 0; round < tournamentRounds(n); ++round) {
        const int peer = tournamentPartner(n, round, me);
        if (peer >= 0) {
            const int initiator = me < peer;
            double* stats = row + (size_t)peer * STATS;
            pingPong(comm, peer, initiator, buffer, o->smallBytes, o->smallReps, samples);
            if (initiator) {
                percentiles(samples, o->smallReps, stats);
                for (int s = 0; s < 3; ++s)
                    stats[s] *= 1e3; /* ms */
            }
            pingPong(comm, peer, initiator, buffer, o->largeBytes, o->largeReps, samples);
            if (initiator) {
                double t[3];
                percentiles(samples, o->largeReps, t);
                /* The slowest trip gives the lowest bandwidth: p10 of bandwidth comes from p90 of time. */
                stats[3] = o->largeBytes / t[2] / 1e6;
                stats[4] = o->largeBytes / t[1] / 1e6;
                stats[5] = o->largeBytes / t[0] / 1e6;
            }
        }
        MPI_Barrier(comm);
    }
    free(buffer);
    free(samples);
}

/* ---- names and sites -------------------------------------------------------------------------------- */

/* Reads host,site lines (a "host,site" header, blank lines and # comments allowed); returns the number of
 * lines read into hosts/sites (arrays of NAME-sized strings), or -1 with a message naming the line. */
static int readSites(const char* path, char (**hosts)[NAME], char (**sites)[NAME])
{
    FILE* file = fopen(path, "r");
    if (!file) {
        fprintf(stderr, "meridian-probe: cannot read %s\n", path);
        return -1;
    }
    int count = 0, capacity = 0, line = 0;
    char text[2 * NAME + 8];
    while (fgets(text, sizeof text, file)) {
        ++line;
        text[strcspn(text, "\r\n")] = '\0';
        if (text[0] == '\0' || text[0] == '#' || (line == 1 && !strcmp(text, "host,site")))
            continue;
        char* comma = strchr(text, ',');
        if (!comma || comma == text || comma[1] == '\0' || strchr(comma + 1, ',')) {
            fprintf(stderr, "meridian-probe: %s:%d: expected 'host,site'\n", path, line);
            fclose(file);
            return -1;
        }
        if (count == capacity) {
            capacity = capacity ? 2 * capacity : 64;
            *hosts = realloc(*hosts, sizeof(**hosts) * (size_t)capacity);
            *sites = realloc(*sites, sizeof(**sites) * (size_t)capacity);
        }
        *comma = '\0';
        const size_t hostLength = strlen(text), siteLength = strlen(comma + 1);
        if (hostLength >= NAME || siteLength >= NAME) {
            fprintf(stderr, "meridian-probe: %s:%d: a name longer than %d characters\n", path, line, NAME - 1);
            fclose(file);
            return -1;
        }
        memcpy((*hosts)[count], text, hostLength + 1);
        memcpy((*sites)[count], comma + 1, siteLength + 1);
        ++count;
    }
    fclose(file);
    return count;
}

/* The participants' names, gathered at rank 0: the host, or host/rank with --per-rank. */
static char (*gatherNames(MPI_Comm part, int perRank, int n))[NAME]
{
    char mine[NAME] = {0}, host[NAME] = {0};
    int length = 0;
    MPI_Get_processor_name(host, &length);
    if (perRank)
        snprintf(mine, NAME, "%.200s/%d", host, g_rank);
    else
        snprintf(mine, NAME, "%s", host);
    char(*names)[NAME] = g_rank == 0 ? calloc((size_t)n, NAME) : NULL;
    MPI_Gather(mine, NAME, MPI_CHAR, names, NAME, MPI_CHAR, 0, part);
    return names;
}

/* ---- writing ---------------------------------------------------------------------------------------- */

static FILE* startWrite(const char* path, char* temporary, size_t size)
{
    snprintf(temporary, size, "%s.part-%ld", path, (long)getpid());
    FILE* file = fopen(temporary, "w");
    if (!file)
        fprintf(stderr, "meridian-probe: cannot write %s\n", temporary);
    return file;
}

static int finishWrite(FILE* file, const char* temporary, const char* path)
{
    const int ok = !ferror(file) && fflush(file) == 0 && fsync(fileno(file)) == 0;
    if (fclose(file) != 0 || !ok || rename(temporary, path) != 0) {
        fprintf(stderr, "meridian-probe: cannot write %s\n", path);
        remove(temporary);
        return 0;
    }
    return 1;
}

static void writeName(FILE* file, const char* name)
{
    if (!strpbrk(name, ",\"")) {
        fputs(name, file);
        return;
    }
    fputc('"', file);
    for (const char* c = name; *c; ++c) {
        if (*c == '"')
            fputc('"', file);
        fputc(*c, file);
    }
    fputc('"', file);
}

/* Writes an m x m matrix (NaN = not measured, left empty) with names as header row and first column. */
static int writeMatrix(const char* path, const char* corner, char (*names)[NAME], int m, const double* values)
{
    char temporary[4200];
    FILE* file = startWrite(path, temporary, sizeof temporary);
    if (!file)
        return 0;
    fputs(corner, file);
    for (int j = 0; j < m; ++j) {
        fputc(',', file);
        writeName(file, names[j]);
    }
    fputc('\n', file);
    for (int i = 0; i < m; ++i) {
        writeName(file, names[i]);
        for (int j = 0; j < m; ++j) {
            const double v = values[(size_t)i * m + j];
            if (v == v)
                fprintf(file, ",%.6g", v);
            else
                fputc(',', file);
        }
        fputc('\n', file);
    }
    return finishWrite(file, temporary, path);
}

/* The statistics of the pair (i, j), measured by the lower of the two. */
static const double* pairStats(const double* all, int n, int i, int j)
{
    return i < j ? all + ((size_t)i * n + j) * STATS : all + ((size_t)j * n + i) * STATS;
}

/* One matrix per quantity over the groups (hosts, or sites): the median over the group pairs' participant pairs
 * of statistic `s` (1 = latency p50, 4 = bandwidth p50); NaN where no pair was measured. */
static double* groupMatrix(const double* all, int n, const int* groupOf, int m, int s)
{
    double* out = malloc(sizeof(double) * (size_t)m * m);
    double* values = malloc(sizeof(double) * (size_t)n * n + 1);
    for (int g = 0; g < m; ++g)
        for (int h = 0; h < m; ++h) {
            long count = 0;
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j)
                    if (i != j && groupOf[i] == g && groupOf[j] == h) {
                        const double v = pairStats(all, n, i, j)[s];
                        if (v == v)
                            values[count++] = v;
                    }
            double p[3] = {0, 0, 0};
            if (count > 0)
                percentiles(values, count, p);
            out[(size_t)g * m + h] = count > 0 ? p[1] : 0.0 / 0.0;
        }
    free(values);
    return out;
}

static void writeJsonString(FILE* file, const char* text)
{
    fputc('"', file);
    for (const char* c = text; *c; ++c) {
        if (*c == '"' || *c == '\\')
            fputc('\\', file);
        if ((unsigned char)*c >= 0x20)
            fputc(*c, file);
    }
    fputc('"', file);
}

/* A JSON number, or null for a statistic that was not measured (JSON has no NaN). */
static void writeJsonNumber(FILE* file, double v)
{
    if (v == v)
        fprintf(file, "%.6g", v);
    else
        fputs("null", file);
}

static void writePercentiles(FILE* file, const double* p)
{
    fputs("{\"p10\": ", file);
    writeJsonNumber(file, p[0]);
    fputs(", \"p50\": ", file);
    writeJsonNumber(file, p[1]);
    fputs(", \"p90\": ", file);
    writeJsonNumber(file, p[2]);
    fputc('}', file);
}

static void writeJson(const char* path, const Options* o, char (*names)[NAME], int n, const double* all,
                      char (*groups)[NAME], const int* groupOf)
{
    char temporary[4200];
    FILE* file = startWrite(path, temporary, sizeof temporary);
    if (!file)
        return;
    char date[32];
    const time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fprintf(file,
            "{\n  \"format\": \"meridian-probe\",\n  \"version\": 1,\n  \"date\": \"%s\",\n  \"per_rank\": %s,\n"
            "  \"small_bytes\": %ld,\n  \"small_repetitions\": %ld,\n  \"large_bytes\": %ld,\n"
            "  \"large_repetitions\": %ld,\n  \"participants\": [",
            date, o->perRank ? "true" : "false", o->smallBytes, o->smallReps, o->largeBytes, o->largeReps);
    for (int i = 0; i < n; ++i) {
        fprintf(file, "%s\n    {\"name\": ", i ? "," : "");
        writeJsonString(file, names[i]);
        fputs(", \"group\": ", file);
        writeJsonString(file, groups[groupOf[i]]);
        fputc('}', file);
    }
    fprintf(file, "\n  ],\n  \"pairs\": [");
    int first = 1;
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) {
            const double* s = pairStats(all, n, i, j);
            fprintf(file, "%s\n    {\"a\": ", first ? "" : ",");
            writeJsonString(file, names[i]);
            fputs(", \"b\": ", file);
            writeJsonString(file, names[j]);
            fputs(", \"latency_ms\": ", file);
            writePercentiles(file, s);
            fputs(", \"bandwidth_MBps\": ", file);
            writePercentiles(file, s + 3);
            fputc('}', file);
            first = 0;
        }
    fprintf(file, "\n  ]\n}\n");
    finishWrite(file, temporary, path);
}

/* Groups the participants by site (from --sites) or each on its own; returns the group count, or -1 when a
 * host is missing from the sites file. */
static int groupParticipants(const Options* o, char (*names)[NAME], int n, char (**groups)[NAME], int* groupOf)
{
    char(*hosts)[NAME] = NULL;
    char(*sites)[NAME] = NULL;
    const int lines = o->sites ? readSites(o->sites, &hosts, &sites) : 0;
    if (lines < 0)
        return -1;
    *groups = calloc((size_t)n, NAME);
    int m = 0;
    for (int i = 0; i < n; ++i) {
        char host[NAME];
        snprintf(host, NAME, "%s", names[i]);
        if (o->perRank && strchr(host, '/'))
            *strrchr(host, '/') = '\0';
        const char* group = names[i];
        if (o->sites) {
            group = NULL;
            for (int l = 0; l < lines && !group; ++l) /* with --per-rank, a line may name one rank: host/rank */
                if (!strcmp(hosts[l], names[i]))
                    group = sites[l];
            for (int l = 0; l < lines && !group; ++l)
                if (!strcmp(hosts[l], host))
                    group = sites[l];
            if (!group) {
                fprintf(stderr, "meridian-probe: host '%s' is not in %s (expected a line '%s,SITE')\n", host, o->sites,
                        host);
                free(hosts);
                free(sites);
                return -1;
            }
        }
        groupOf[i] = -1;
        for (int g = 0; g < m && groupOf[i] < 0; ++g)
            if (!strcmp((*groups)[g], group))
                groupOf[i] = g;
        if (groupOf[i] < 0) {
            snprintf((*groups)[m], NAME, "%s", group);
            groupOf[i] = m++;
        }
    }
    free(hosts);
    free(sites);
    return m;
}

/* The participants and the groups (sites, or each on its own) the matrices are written over. */
typedef struct {
    char (*names)[NAME];
    char (*groups)[NAME];
    int* groupOf;
    int count;
} Grouping;

static int writeResults(const Options* o, const Grouping* g, int n, const double* all)
{
    char path[4096];
    double* latency = groupMatrix(all, n, g->groupOf, g->count, 1);
    double* bandwidth = groupMatrix(all, n, g->groupOf, g->count, 4);
    const char* corner = o->sites ? "site" : "host";
    snprintf(path, sizeof path, "%s.latency.csv", o->out);
    int ok = writeMatrix(path, corner, g->groups, g->count, latency);
    snprintf(path, sizeof path, "%s.bandwidth.csv", o->out);
    ok = writeMatrix(path, corner, g->groups, g->count, bandwidth) && ok;
    snprintf(path, sizeof path, "%s.probe.json", o->out);
    writeJson(path, o, g->names, n, all, g->groups, g->groupOf);
    free(latency);
    free(bandwidth);
    return ok;
}

/* Names the participants and groups them at rank 0 (before anything is measured, so a bad sites file costs
 * no measurement); returns whether every participant found its group, on every participant. */
static int prepareGrouping(MPI_Comm part, const Options* o, int n, Grouping* g)
{
    g->names = gatherNames(part, o->perRank, n);
    int ok = 1;
    if (g_rank == 0) {
        g->groupOf = malloc(sizeof(int) * (size_t)n);
        g->count = groupParticipants(o, g->names, n, &g->groups, g->groupOf);
        ok = g->count > 0;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, part);
    return ok;
}

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    Options o;
    if (!parseOptions(argc, argv, &o)) {
        MPI_Finalize();
        return 2;
    }
    /* One leader per host (the node's lowest rank), or every rank. */
    MPI_Comm node, part;
    int nodeRank = 0, n = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, g_rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &nodeRank);
    MPI_Comm_split(MPI_COMM_WORLD, o.perRank || nodeRank == 0 ? 0 : MPI_UNDEFINED, g_rank, &part);
    if (part != MPI_COMM_NULL)
        MPI_Comm_size(part, &n);
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (n < 2) {
        if (g_rank == 0)
            fprintf(stderr,
                    "meridian-probe: needs at least 2 participants, found %d: run it on several hosts "
                    "(mpirun --map-by node), or give --per-rank to measure between ranks\n",
                    n);
        MPI_Finalize();
        return 2;
    }
    int ok = 1;
    if (part != MPI_COMM_NULL) {
        Grouping grouping = {NULL, NULL, NULL, 0};
        ok = prepareGrouping(part, &o, n, &grouping);
        if (ok) {
            double* row = malloc(sizeof(double) * (size_t)n * STATS);
            for (int k = 0; k < n * STATS; ++k)
                row[k] = 0.0 / 0.0;
            measure(part, &o, row);
            double* all = g_rank == 0 ? malloc(sizeof(double) * (size_t)n * n * STATS) : NULL;
            MPI_Gather(row, n * STATS, MPI_DOUBLE, all, n * STATS, MPI_DOUBLE, 0, part);
            if (g_rank == 0)
                ok = writeResults(&o, &grouping, n, all);
            free(row);
            free(all);
        }
        free(grouping.names);
        free(grouping.groups);
        free(grouping.groupOf);
        MPI_Comm_free(&part);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Comm_free(&node);
    MPI_Finalize();
    return ok ? 0 : 2;
}
