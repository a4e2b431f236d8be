/**
 * @file lab06.c
 * @brief Unit tests of lab 06's host-side student functions, on any machine: ipc_close of an
 *        empty peer (TODO 06.3), the ring schedule (06.4) and the all-reduce bandwidths (06.7).
 *
 * Prints one line per case ("ok NAME" or "not ok NAME: why") and exits 1 when any case failed.
 * An argument (a TODO id) runs that TODO's cases only.
 */
#define _DEFAULT_SOURCE /* unit_groups.h: fork, waitpid, getline, mmap */
#include "allreduce.h"
#include "unit_groups.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failed;

static void report(const char *name, int ok, const char *why)
{
    printf("%s %s%s%s\n", ok ? "ok" : "not ok", name, ok ? "" : ": ", ok ? "" : why);
    failed |= !ok;
}

/* ---- TODO 06.3 ---- */

static void close_cases(void)
{
    unit_case("close_empty_peer");
    char why[256];
    lab06_peer peer = {NULL, NULL};
    cudaError_t err = ipc_close(&peer);
    snprintf(why, sizeof why, "ipc_close of a peer with both fields NULL returned %s (ptr %p, "
             "event %p); expected cudaSuccess, no CUDA call", cudaGetErrorName(err), peer.ptr,
             (void *)peer.event);
    report("close_empty_peer", err == cudaSuccess && peer.ptr == NULL && peer.event == NULL, why);
    err = ipc_close(&peer);
    report("close_twice", err == cudaSuccess, "a second ipc_close of the same peer failed");
}

/* ---- TODO 06.4 ---- */

/* The contract's chunks, written another way: (x mod n) in 0..n-1 for any x. */
static int mod(int x, int n)
{
    return ((x % n) + n) % n;
}

/* Every valid (n, rank, phase, step) gives the contract's chunks; every step outside
 * 0..n-2 is refused with *out untouched. */
static void schedule_values(void)
{
    unit_case("schedule_every_n_rank_step");
    char why[256] = "";
    int bad = 0;
    for (int n = 1; n <= LAB06_MAX_RANKS && !bad; n++)
        for (int r = 0; r < n && !bad; r++)
            for (int phase = 0; phase < 2 && !bad; phase++)
                for (int s = -1; s <= n && !bad; s++) {
                    lab06_ring_step st = {-7, -7};
                    const int rc = ring_schedule(n, r, phase, s, &st);
                    const int valid = s >= 0 && s <= n - 2;
                    const int send = mod(phase == LAB06_REDUCE_SCATTER ? r - s : r - s + 1, n);
                    const int recv = mod(send - 1, n);
                    bad = valid ? rc != 0 || st.send_chunk != send || st.recv_chunk != recv
                                : rc != -1 || st.send_chunk != -7 || st.recv_chunk != -7;
                    if (bad)
                        snprintf(why, sizeof why, "ring_schedule(n %d, rank %d, phase %d, step "
                                 "%d) returned %d with send %d recv %d; expected %d with send "
                                 "%d recv %d", n, r, phase, s, rc, st.send_chunk, st.recv_chunk,
                                 valid ? 0 : -1, valid ? send : -7, valid ? recv : -7);
                }
    report("schedule_every_n_rank_step", !bad, why);
}

static void schedule_refusals(void)
{
    unit_case("schedule_refusals");
    static const int args[][4] = {{0, 0, 0, 0}, {9, 0, 0, 0}, {-1, 0, 0, 0}, {4, -1, 0, 0},
                                  {4, 4, 0, 0}, {4, 0, 2, 0}, {4, 0, -1, 0}, {1, 0, 0, 0}};
    for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
        char name[64], why[160];
        lab06_ring_step st = {-7, -7};
        const int rc = ring_schedule(args[i][0], args[i][1], args[i][2], args[i][3], &st);
        snprintf(name, sizeof name, "schedule_refuses_n%d_rank%d_phase%d_step%d", args[i][0],
                 args[i][1], args[i][2], args[i][3]);
        snprintf(why, sizeof why, "returned %d with send %d recv %d; expected -1, untouched", rc,
                 st.send_chunk, st.recv_chunk);
        report(name, rc == -1 && st.send_chunk == -7 && st.recv_chunk == -7, why);
    }
}

/* One phase of the ring on the host: in each step every rank takes its receive chunk from its
 * left neighbour's buffer as that buffer was after the previous step (the barrier's order),
 * which must be the chunk the neighbour sends. A chunk's value is the set of ranks whose data
 * it holds (a bit each). */
static int simulate_phase(int n, int phase, unsigned held[][LAB06_MAX_RANKS], char *why, size_t len)
{
    for (int s = 0; s + 1 < n; s++) {
        unsigned before[LAB06_MAX_RANKS][LAB06_MAX_RANKS];
        memcpy(before, held, sizeof before);
        for (int r = 0; r < n; r++) {
            const int left = (r + n - 1) % n;
            lab06_ring_step mine, theirs;
            if (ring_schedule(n, r, phase, s, &mine) != 0 ||
                ring_schedule(n, left, phase, s, &theirs) != 0)
                return snprintf(why, len, "n %d: step %d of phase %d refused", n, s, phase);
            if (theirs.send_chunk != mine.recv_chunk)
                return snprintf(why, len, "n %d step %d: rank %d receives chunk %d but its left "
                                "neighbour sends chunk %d", n, s, r, mine.recv_chunk,
                                theirs.send_chunk);
            const int c = mine.recv_chunk;
            held[r][c] = phase == LAB06_REDUCE_SCATTER ? before[r][c] | before[left][c]
                                                       : before[left][c];
        }
    }
    return 0;
}

/* The whole ring, simulated for every n: after it every rank holds every rank's data in every
 * chunk, each added once (a bit set twice would show as a sum gone wrong on the GPU). */
static void schedule_simulated(void)
{
    unit_case("schedule_ring_simulated_n1_to_8");
    char why[256] = "";
    for (int n = 1; n <= LAB06_MAX_RANKS && why[0] == '\0'; n++) {
        unsigned held[LAB06_MAX_RANKS][LAB06_MAX_RANKS];
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++)
                held[r][c] = 1u << r;
        if (simulate_phase(n, LAB06_REDUCE_SCATTER, held, why, sizeof why))
            break;
        for (int r = 0; r < n && why[0] == '\0'; r++)
            if (held[r][(r + 1) % n] != (1u << n) - 1)
                snprintf(why, sizeof why, "n %d: after the reduce-scatter rank %d's chunk %d "
                         "holds ranks 0x%x, not all", n, r, (r + 1) % n, held[r][(r + 1) % n]);
        if (why[0] == '\0' && simulate_phase(n, LAB06_ALL_GATHER, held, why, sizeof why))
            break;
        for (int r = 0; r < n && why[0] == '\0'; r++)
            for (int c = 0; c < n && why[0] == '\0'; c++)
                if (held[r][c] != (1u << n) - 1)
                    snprintf(why, sizeof why, "n %d: after the all-gather rank %d's chunk %d "
                             "holds ranks 0x%x, not all", n, r, c, held[r][c]);
    }
    report("schedule_ring_simulated_n1_to_8", why[0] == '\0', why);
}

static void schedule_cases(void)
{
    schedule_values();
    schedule_refusals();
    schedule_simulated();
}

/* ---- TODO 06.7 ---- */

static void bw_case(const char *name, size_t bytes, double seconds, int n, int want_rc,
                    double algbw, double busbw)
{
    unit_case(name);
    char why[256];
    double a = -7.0, b = -7.0;
    const int rc = allreduce_bandwidth(bytes, seconds, n, &a, &b);
    const double wa = want_rc == 0 ? algbw : -7.0, wb = want_rc == 0 ? busbw : -7.0;
    const int ok = rc == want_rc && fabs(a - wa) <= 1e-9 * fabs(wa) && fabs(b - wb) <= 1e-9 * fabs(wb);
    snprintf(why, sizeof why, "allreduce_bandwidth(%zu bytes, %g s, %d ranks) returned %d, "
             "algbw %g, busbw %g; expected %d, %g, %g", bytes, seconds, n, rc, a, b, want_rc, wa, wb);
    report(name, ok, why);
}

static void bandwidth_cases(void)
{
    bw_case("bw_two_ranks", 1000000000, 1.0, 2, 0, 1.0, 1.0);
    bw_case("bw_four_ranks", 4000000000, 2.0, 4, 0, 2.0, 3.0);
    bw_case("bw_eight_ranks", 1000000, 1e-3, 8, 0, 1.0, 1.75);
    bw_case("bw_decimal_gigabytes", 1u << 30, 1.0, 2, 0, 1.073741824, 1.073741824);
    bw_case("bw_one_rank_moves_nothing", 1000000000, 0.5, 1, 0, 2.0, 0.0);
    bw_case("bw_zero_time_refused", 4096, 0.0, 2, -1, 0, 0);
    bw_case("bw_negative_time_refused", 4096, -1.0, 2, -1, 0, 0);
    bw_case("bw_nan_time_refused", 4096, NAN, 2, -1, 0, 0);
    bw_case("bw_infinite_time_refused", 4096, INFINITY, 2, -1, 0, 0);
    bw_case("bw_no_ranks_refused", 4096, 1.0, 0, -1, 0, 0);
}

int main(int argc, char **argv)
{
    static const unit_group groups[] = {
        {"06.3", close_cases},
        {"06.4", schedule_cases},
        {"06.7", bandwidth_cases},
    };
    if (unit_run_groups(groups, sizeof groups / sizeof groups[0], argc, argv) == 0)
        return 2;
    return failed;
}
