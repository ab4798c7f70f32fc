#pragma once

#include "core/common/expected.h"

namespace meridian::collectives {

/// One homogeneous network as Twister (HPDC'13) models it: alpha, the start-up time of a message (s), and beta,
/// the transfer time per byte (s/B).
struct UniformLink {
    double alphaS = 0.0;
    double betaSPerByte = 0.0;
};

/// Twister's broadcast models, exactly as printed, for p nodes and n bytes. Errors name what is out of range
/// (p < 1, n <= 0 or not finite, a negative or non-finite alpha or beta, k < 1 or k > n).
///
/// Eq. 1, minimum-spanning-tree broadcast: ceil(log2 p) (alpha + n beta).
Expected<double> mstBroadcastSeconds(int p, double bytes, UniformLink link);
/// Eq. 2, scatter-allgather (bucket) broadcast: p (alpha + n beta / p) + (p - 1) (alpha + n beta / p).
Expected<double> bucketBroadcastSeconds(int p, double bytes, UniformLink link);
/// Eq. 3, pipelined chain broadcast in k chunks: p (alpha + n beta / k) + (k - 1) (alpha + n beta / k).
Expected<double> chainBroadcastSeconds(int p, int chunks, double bytes, UniformLink link);

/// The chunk count that minimises Eq. 3: k_opt = sqrt((p - 1) n beta / alpha) from dT/dk = 0, taken as whichever
/// of its two integer neighbours costs less (the lower on a tie), at least 1 and at most n (a chunk holds at least
/// one byte) and at most 2^30. With alpha = 0 every extra chunk helps, so the bound is returned.
Expected<int> optimalChunks(int p, double bytes, UniformLink link);

} // namespace meridian::collectives
