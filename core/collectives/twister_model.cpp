#include "core/collectives/twister_model.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace meridian::collectives {

namespace {

/// The most chunks a chain is cut into (an int, and far more than any network benefits from).
constexpr double kMaxChunks = 1073741824.0; // 2^30

Status checkInput(int p, double bytes, UniformLink link)
{
    if (p < 1)
        return makeError(ErrorCode::InvalidInput, "the node count must be at least 1, not " + std::to_string(p));
    if (!std::isfinite(bytes) || bytes <= 0.0)
        return makeError(ErrorCode::InvalidInput,
                         "the message size must be a positive number of bytes, not " + std::to_string(bytes));
    if (!std::isfinite(link.alphaS) || link.alphaS < 0.0)
        return makeError(ErrorCode::InvalidInput,
                         "alpha (start-up time) must be a finite number of seconds >= 0, not "
                             + std::to_string(link.alphaS));
    if (!std::isfinite(link.betaSPerByte) || link.betaSPerByte < 0.0)
        return makeError(ErrorCode::InvalidInput,
                         "beta (time per byte) must be a finite number of seconds >= 0, not "
                             + std::to_string(link.betaSPerByte));
    return {};
}

Status checkChunks(int chunks, double bytes)
{
    if (chunks < 1)
        return makeError(ErrorCode::InvalidInput, "the chunk count must be at least 1, not " + std::to_string(chunks));
    if (static_cast<double>(chunks) > bytes)
        return makeError(ErrorCode::InvalidInput,
                         std::to_string(chunks) + " chunks of a " + std::to_string(static_cast<long long>(bytes))
                             + "-byte message would leave chunks without a byte");
    return {};
}

double chain(int p, double k, double n, UniformLink link)
{
    const double step = link.alphaS + n * link.betaSPerByte / k;
    return p * step + (k - 1.0) * step;
}

} // namespace

Expected<double> mstBroadcastSeconds(int p, double bytes, UniformLink link)
{
    if (auto ok = checkInput(p, bytes, link); !ok)
        return ok.error();
    // ceil(log2 p) by integer steps: exact for every p (std::log2 of a power of two may round up).
    int rounds = 0;
    for (long long reached = 1; reached < p; reached *= 2)
        ++rounds;
    return rounds * (link.alphaS + bytes * link.betaSPerByte);
}

Expected<double> bucketBroadcastSeconds(int p, double bytes, UniformLink link)
{
    if (auto ok = checkInput(p, bytes, link); !ok)
        return ok.error();
    const double step = link.alphaS + bytes * link.betaSPerByte / p;
    return p * step + (p - 1) * step;
}

Expected<double> chainBroadcastSeconds(int p, int chunks, double bytes, UniformLink link)
{
    if (auto ok = checkInput(p, bytes, link); !ok)
        return ok.error();
    if (auto ok = checkChunks(chunks, bytes); !ok)
        return ok.error();
    return chain(p, chunks, bytes, link);
}

Expected<int> optimalChunks(int p, double bytes, UniformLink link)
{
    if (auto ok = checkInput(p, bytes, link); !ok)
        return ok.error();
    const double bound = std::min(std::floor(bytes), kMaxChunks);
    if (bound < 1.0)
        return makeError(ErrorCode::InvalidInput, "a message of less than one byte cannot be cut into chunks");
    if (link.alphaS == 0.0)
        return static_cast<int>(link.betaSPerByte > 0.0 && p > 1 ? bound : 1.0);
    const double kOpt = std::sqrt((p - 1) * bytes * link.betaSPerByte / link.alphaS);
    const double low = std::clamp(std::floor(kOpt), 1.0, bound);
    const double high = std::clamp(std::ceil(kOpt), 1.0, bound);
    return static_cast<int>(chain(p, high, bytes, link) < chain(p, low, bytes, link) ? high : low);
}

} // namespace meridian::collectives
