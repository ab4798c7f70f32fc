! known_matrix.c in Fortran: the same messages and collectives, rank by rank and phase by phase (see the comment at
! the top of known_matrix.c), so the capture tests check a Fortran program against the same numbers. One source,
! built with mpifort in each of Fortran's MPI bindings:
!   -DMERIDIAN_MPIF_H   include 'mpif.h' (Fortran 77's; gfortran needs -fallow-argument-mismatch, as for any
!                       program that passes buffers of several types to one MPI routine without interfaces)
!   -DMERIDIAN_F08      use mpi_f08
!   neither             use mpi
!   -DMERIDIAN_MIXED    (with use mpi) no main program: known_matrix.c built with -DMERIDIAN_MIXED initialises MPI,
!                       sends phase 0's ring and opposite traffic from C and calls known_matrix_fortran_rest for the
!                       rest, then finalises from C.
! The same options as known_matrix.c: --without-persistent, --without-sendrecv,
! --without-subcommunicator-collectives. Run on 4 ranks.
#if defined(MERIDIAN_F08)
#define HANDLE(KIND) type(KIND)
#define STATUS_ARRAY(N) type(MPI_Status) :: statuses(N)
#else
#define HANDLE(KIND) integer
#define STATUS_ARRAY(N) integer :: statuses(MPI_STATUS_SIZE, N)
#endif

module known_matrix_parts
#if defined(MERIDIAN_F08)
    use mpi_f08
#elif !defined(MERIDIAN_MPIF_H)
    use mpi
#endif
    use iso_c_binding, only: c_int, c_ptr
    implicit none
#if defined(MERIDIAN_MPIF_H)
    include 'mpif.h'
#endif
    character(len=8192) :: buffer, inbox
    logical :: with_sendrecv = .true., with_persistent = .true., with_sub_collectives = .true.

contains

    subroutine ring(rank, size)
        integer, intent(in) :: rank, size
        integer :: next, previous, mine, theirs, k, ierror, detached_size
        double precision :: outgoing(100), incoming(100)
        character(len=1024) :: attached
#if defined(MERIDIAN_F08)
        type(c_ptr) :: detached_address
#endif
        next = mod(rank + 1, size)
        previous = mod(rank + size - 1, size)
        mine = 1000 * (rank + 1)
        theirs = 1000 * (previous + 1)
        do k = 1, 3
            if (mod(rank, 2) == 0) then
                call MPI_Send(buffer, mine, MPI_BYTE, next, 1, MPI_COMM_WORLD, ierror)
                call MPI_Recv(inbox, theirs, MPI_BYTE, previous, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierror)
            else
                call MPI_Recv(inbox, theirs, MPI_BYTE, previous, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierror)
                call MPI_Send(buffer, mine, MPI_BYTE, next, 1, MPI_COMM_WORLD, ierror)
            end if
        end do
        outgoing = 1.0d0
        if (with_sendrecv) then
            call MPI_Sendrecv(outgoing, 100, MPI_DOUBLE_PRECISION, next, 2, incoming, 100, MPI_DOUBLE_PRECISION, &
                              previous, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierror)
        end if
        call MPI_Buffer_attach(attached, 1024, ierror)
        call MPI_Bsend(buffer, 24, MPI_BYTE, next, 3, MPI_COMM_WORLD, ierror)
        call MPI_Recv(inbox, 24, MPI_BYTE, previous, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierror)
#if defined(MERIDIAN_F08)
        call MPI_Buffer_detach(detached_address, detached_size, ierror)
#else
        call MPI_Buffer_detach(attached, detached_size, ierror)
#endif
    end subroutine

    subroutine opposite(rank, size)
        integer, intent(in) :: rank, size
        integer :: partner, k, ierror
        integer :: values(10)
        partner = mod(rank + 2, size)
        do k = 1, 2
            if (rank < partner) then
                call MPI_Ssend(buffer, 500, MPI_BYTE, partner, 4, MPI_COMM_WORLD, ierror)
                call MPI_Recv(inbox, 500, MPI_BYTE, partner, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierror)
            else
                call MPI_Recv(inbox, 500, MPI_BYTE, partner, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierror)
                call MPI_Ssend(buffer, 500, MPI_BYTE, partner, 4, MPI_COMM_WORLD, ierror)
            end if
        end do
        values = 0
        if (with_sendrecv) then
            call MPI_Sendrecv_replace(values, 10, MPI_INTEGER, partner, 5, partner, 5, MPI_COMM_WORLD, &
                                      MPI_STATUS_IGNORE, ierror)
        end if
    end subroutine

    subroutine backwards(rank, size)
        integer, intent(in) :: rank, size
        integer :: to, from, k, ierror
        integer :: outgoing(256, 2), incoming(256, 2)
        HANDLE(MPI_Request) :: requests(4), persistent(2)
        STATUS_ARRAY(4)
        to = mod(rank + 3, size)
        from = mod(rank + 1, size)
        outgoing = rank
        call MPI_Isend(outgoing(:, 1), 256, MPI_INTEGER, to, 6, MPI_COMM_WORLD, requests(1), ierror)
        call MPI_Isend(outgoing(:, 2), 256, MPI_INTEGER, to, 6, MPI_COMM_WORLD, requests(2), ierror)
        call MPI_Irecv(incoming(:, 1), 256, MPI_INTEGER, from, 6, MPI_COMM_WORLD, requests(3), ierror)
        call MPI_Irecv(incoming(:, 2), 256, MPI_INTEGER, from, 6, MPI_COMM_WORLD, requests(4), ierror)
        ! The statuses kept here (the C program ignores them): both forms reach the tracer.
        call MPI_Waitall(4, requests, statuses, ierror)
        if (.not. with_persistent) then
            call MPI_Send(buffer, 99, MPI_BYTE, MPI_PROC_NULL, 8, MPI_COMM_WORLD, ierror)
            return
        end if
        call MPI_Send_init(buffer, 64, MPI_BYTE, to, 7, MPI_COMM_WORLD, persistent(1), ierror)
        call MPI_Recv_init(inbox, 64, MPI_BYTE, from, 7, MPI_COMM_WORLD, persistent(2), ierror)
        do k = 1, 4
            call MPI_Startall(2, persistent, ierror)
            call MPI_Waitall(2, persistent, MPI_STATUSES_IGNORE, ierror)
        end do
        call MPI_Request_free(persistent(1), ierror)
        call MPI_Request_free(persistent(2), ierror)
        call MPI_Send(buffer, 99, MPI_BYTE, MPI_PROC_NULL, 8, MPI_COMM_WORLD, ierror)
    end subroutine

    subroutine world_collectives()
        integer :: ierror
        double precision :: local(8), global(8)
        call MPI_Bcast(buffer, 1000, MPI_BYTE, 0, MPI_COMM_WORLD, ierror)
        local = 0.0d0
        call MPI_Allreduce(local, global, 8, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierror)
        call MPI_Barrier(MPI_COMM_WORLD, ierror)
    end subroutine

    subroutine sub_communicator(rank)
        integer, intent(in) :: rank
        HANDLE(MPI_Comm) :: pair
        HANDLE(MPI_Request) :: requests(2)
        integer :: s, partner, k, ierror
        integer :: values(4), sums(4)
        double precision :: outgoing(13), incoming(13)
        call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, pair, ierror)
        call MPI_Comm_rank(pair, s, ierror)
        partner = 1 - s
        do k = 1, 5
            if (s == 0) then
                call MPI_Send(buffer, 77, MPI_BYTE, partner, 9, pair, ierror)
                call MPI_Recv(inbox, 77, MPI_BYTE, partner, 9, pair, MPI_STATUS_IGNORE, ierror)
            else
                call MPI_Recv(inbox, 77, MPI_BYTE, partner, 9, pair, MPI_STATUS_IGNORE, ierror)
                call MPI_Send(buffer, 77, MPI_BYTE, partner, 9, pair, ierror)
            end if
        end do
        outgoing = 2.0d0
        call MPI_Isend(outgoing, 13, MPI_DOUBLE_PRECISION, partner, 10, pair, requests(1), ierror)
        call MPI_Irecv(incoming, 13, MPI_DOUBLE_PRECISION, partner, 10, pair, requests(2), ierror)
        call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE, ierror)
        values = [1, 2, 3, 4]
        if (with_sub_collectives) then
            call MPI_Reduce(values, sums, 4, MPI_INTEGER, MPI_SUM, 1, pair, ierror)
        end if
        call MPI_Comm_free(pair, ierror)
    end subroutine

    ! What the C program of the mixed build leaves to Fortran: everything after phase 0's ring and opposite.
    subroutine known_matrix_fortran_rest(persistent, sub_collectives) bind(C, name="known_matrix_fortran_rest")
        integer(c_int), value, intent(in) :: persistent, sub_collectives
        integer :: rank, size, ierror
        with_persistent = persistent /= 0
        with_sub_collectives = sub_collectives /= 0
        buffer = repeat(achar(1), len(buffer))
        call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierror)
        call MPI_Comm_size(MPI_COMM_WORLD, size, ierror)
        call backwards(rank, size)
        call world_collectives()
        call MPI_Pcontrol(1)
        call sub_communicator(rank)
    end subroutine

end module

#if !defined(MERIDIAN_MIXED)
program known_matrix
    use known_matrix_parts
#if defined(MERIDIAN_F08)
    use mpi_f08
#elif !defined(MERIDIAN_MPIF_H)
    use mpi
#endif
    implicit none
    integer :: rank, size, ierror, a
    character(len=64) :: argument
    call MPI_Init(ierror)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierror)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierror)
    if (size /= 4) then
        if (rank == 0) write (0, '(a)') 'known_matrix: run on 4 ranks (mpirun -np 4)'
        call MPI_Abort(MPI_COMM_WORLD, 2, ierror)
    end if
    do a = 1, command_argument_count()
        call get_command_argument(a, argument)
        if (argument == '--without-persistent') with_persistent = .false.
        if (argument == '--without-sendrecv') with_sendrecv = .false.
        if (argument == '--without-subcommunicator-collectives') with_sub_collectives = .false.
    end do
    buffer = repeat(achar(1), len(buffer))
    call ring(rank, size)
    call opposite(rank, size)
    call backwards(rank, size)
    call world_collectives()
    call MPI_Pcontrol(1)
    call sub_communicator(rank)
    call MPI_Finalize(ierror)
    if (rank == 0) print '(a)', 'known_matrix: done'
end program
#endif
