/* Prints, for each MPI rank, the host it runs on and the CPUs it is bound to:
 *   rank <r> host <hostname> cpus <c> [<c> ...]
 * Used by test_rankfile_mpirun to check that Open MPI placed every rank where Meridian's rankfile said. */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof set, &set);
    char line[8192];
    int n = snprintf(line, sizeof line, "rank %d host %s cpus", rank, host);
    for (int c = 0; c < CPU_SETSIZE && n < (int)sizeof line - 16; ++c)
        if (CPU_ISSET(c, &set))
            n += snprintf(line + n, sizeof line - (size_t)n, " %d", c);
    puts(line);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
