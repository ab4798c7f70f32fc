#include "core/common/held_share.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <vector>

namespace meridian::held_share {

namespace {

std::mutex g_mutex;
HeldPoint g_last;
std::vector<HeldPoint> g_doublings;
bool g_splits = false;
double g_edgeBytes = 1.0, g_vertexBytes = 75.0, g_vertexBytesEachRank = 0.0;

} // namespace

void begin(bool splits, double edgeBytes, double vertexBytes, double vertexBytesEachRank)
{
    const std::lock_guard lock(g_mutex);
    g_last = {};
    g_doublings.clear();
    g_splits = splits;
    g_edgeBytes = edgeBytes;
    g_vertexBytes = vertexBytes;
    g_vertexBytesEachRank = vertexBytesEachRank;
}

double edgeBytes()
{
    const std::lock_guard lock(g_mutex);
    return g_edgeBytes;
}

double vertexBytes()
{
    const std::lock_guard lock(g_mutex);
    return g_vertexBytes;
}

double vertexBytesEachRank()
{
    const std::lock_guard lock(g_mutex);
    return g_vertexBytesEachRank;
}

bool splits()
{
    const std::lock_guard lock(g_mutex);
    return g_splits;
}

void set(const HeldPoint& point)
{
    if (point.vertices <= 0.0 || point.edges <= 0.0)
        return; // nothing held yet
    const std::lock_guard lock(g_mutex);
    if (g_doublings.empty() || point.edges >= 2.0 * g_doublings.back().edges)
        g_doublings.push_back(point);
    g_last = point;
}

HeldPoint last()
{
    const std::lock_guard lock(g_mutex);
    return g_last;
}

double projectedVertices()
{
    const std::lock_guard lock(g_mutex);
    if (g_last.fraction <= 0.0)
        return 0.0;
    double exponent = 1.0;
    for (auto it = g_doublings.rbegin(); it != g_doublings.rend(); ++it)
        if (it->edges > 0.0 && it->vertices > 0.0 && 2.0 * it->edges <= g_last.edges) {
            exponent = std::log(g_last.vertices / it->vertices) / std::log(g_last.edges / it->edges);
            break;
        }
    exponent = std::clamp(exponent, 0.0, 1.0);
    return g_last.vertices * std::pow(1.0 / g_last.fraction, exponent);
}

} // namespace meridian::held_share
