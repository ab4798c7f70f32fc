#include "widgets/heatmap_binning.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace meridian::widgets {

MatrixStatistics matrixStatistics(const HeatmapData& data)
{
    const int rows = data.rows(), cols = data.columns();
    MatrixStatistics s;
    s.rowSums.assign(rows, 0.0);
    s.columnSums.assign(cols, 0.0);
    double lo = std::numeric_limits<double>::infinity(), hi = -lo, minPositive = lo;
    auto visit = [&](int r, int c, double v) {
        if (std::isnan(v))
            return;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        if (v > 0)
            minPositive = std::min(minPositive, v);
        s.rowSums[r] += v;
        s.columnSums[c] += v;
    };
    if (data.isSparse) {
        const auto& m = data.sparse;
        for (int r = 0; r < m.outerSize(); ++r)
            for (HeatmapData::Sparse::InnerIterator it(m, r); it; ++it)
                visit(r, static_cast<int>(it.col()), it.value());
        if (m.nonZeros() < static_cast<long long>(rows) * cols) {
            lo = std::min(lo, 0.0);
            hi = std::max(hi, 0.0);
        }
    } else {
        for (int c = 0; c < cols; ++c)
            for (int r = 0; r < rows; ++r)
                visit(r, c, data.dense(r, c));
    }
    if (!std::isfinite(lo))
        lo = hi = 0.0;
    s.min = lo;
    s.max = hi;
    s.minPositive = std::isfinite(minPositive) ? minPositive : 1.0;
    return s;
}

BlockLevel buildBlockLevel(const HeatmapData& data, long long cellThreshold, int blocksPerSide)
{
    BlockLevel level;
    const int rows = data.rows(), cols = data.columns();
    if (data.isSparse || static_cast<long long>(rows) * cols <= cellThreshold)
        return level;
    level.block = std::max(2, (std::max(rows, cols) + blocksPerSide - 1) / blocksPerSide);
    level.rows = (rows + level.block - 1) / level.block;
    level.columns = (cols + level.block - 1) / level.block;
    const std::size_t n = static_cast<std::size_t>(level.rows) * level.columns;
    level.max.assign(n, -std::numeric_limits<float>::infinity());
    level.sum.assign(n, 0.0f);
    level.missing.assign(n, 0);
    for (int c = 0; c < cols; ++c) {
        const int bc = c / level.block;
        const double* column = data.dense.data() + static_cast<std::size_t>(c) * rows;
        for (int r = 0; r < rows; ++r) {
            const std::size_t b = static_cast<std::size_t>(r / level.block) * level.columns + bc;
            const double v = column[r];
            if (std::isnan(v)) {
                level.missing[b] = 1;
                continue;
            }
            level.max[b] = std::max(level.max[b], static_cast<float>(v));
            level.sum[b] += static_cast<float>(v);
        }
    }
    return level;
}

namespace {

/// Pixel of every visible row and column, computed once (no division per cell).
class BinIndex {
public:
    BinIndex(const QRect& view, int width, int height)
        : m_r0(view.top())
        , m_c0(view.left())
        , m_rowBin(view.height())
        , m_columnBin(view.width())
    {
        for (int r = 0; r < view.height(); ++r)
            m_rowBin[r] = static_cast<std::uint32_t>(static_cast<long long>(r) * height / view.height())
                * static_cast<std::uint32_t>(width);
        for (int c = 0; c < view.width(); ++c)
            m_columnBin[c] = static_cast<std::uint32_t>(static_cast<long long>(c) * width / view.width());
    }
    std::size_t operator()(int r, int c) const
    {
        return static_cast<std::size_t>(m_rowBin[r - m_r0]) + m_columnBin[c - m_c0];
    }

private:
    int m_r0, m_c0;
    std::vector<std::uint32_t> m_rowBin, m_columnBin;
};

void addValue(PixelBins& bins, std::size_t b, double v)
{
    bins.max[b] = std::max(bins.max[b], v);
    bins.sum[b] += v;
    bins.state[b] |= 1;
}

void binSparse(const HeatmapData& data, const QRect& view, const BinIndex& index, PixelBins& bins)
{
    const int* outer = data.sparse.outerIndexPtr();
    const int* inner = data.sparse.innerIndexPtr();
    const double* values = data.sparse.valuePtr();
    const int c0 = view.left(), w = view.width();
    for (int r = view.top(); r <= view.bottom(); ++r) {
        const int* begin = std::lower_bound(inner + outer[r], inner + outer[r + 1], c0);
        for (const int* it = begin; it != inner + outer[r + 1] && *it < c0 + w; ++it)
            addValue(bins, index(r, *it), values[it - inner]);
    }
}

void binBlocks(const BlockLevel& blocks, const QRect& view, const BinIndex& index, PixelBins& bins)
{
    const int r0 = view.top(), c0 = view.left(), h = view.height(), w = view.width(), size = blocks.block;
    for (int br = r0 / size; br <= (r0 + h - 1) / size; ++br)
        for (int bc = c0 / size; bc <= (c0 + w - 1) / size; ++bc) {
            const int r = std::clamp(br * size + size / 2, r0, r0 + h - 1);
            const int c = std::clamp(bc * size + size / 2, c0, c0 + w - 1);
            const std::size_t k = static_cast<std::size_t>(br) * blocks.columns + bc;
            const std::size_t b = index(r, c);
            if (blocks.missing[k])
                bins.state[b] |= 2;
            if (std::isfinite(blocks.max[k])) {
                bins.max[b] = std::max(bins.max[b], static_cast<double>(blocks.max[k]));
                bins.sum[b] += blocks.sum[k];
                bins.state[b] |= 1;
            }
        }
}

void binDense(const HeatmapData& data, const QRect& view, const BinIndex& index, PixelBins& bins)
{
    for (int c = view.left(); c <= view.right(); ++c)
        for (int r = view.top(); r <= view.bottom(); ++r) {
            const double v = data.dense(r, c);
            if (std::isnan(v))
                bins.state[index(r, c)] |= 2;
            else
                addValue(bins, index(r, c), v);
        }
}

} // namespace

PixelBins binCells(const HeatmapData& data, const QRect& view, const QSize& pixels, const BlockLevel& blocks,
                   long long blockViewCells)
{
    PixelBins bins;
    if (view.isEmpty() || pixels.isEmpty())
        return bins;
    bins.width = std::min(view.width(), pixels.width());
    bins.height = std::min(view.height(), pixels.height());
    const std::size_t n = static_cast<std::size_t>(bins.width) * bins.height;
    bins.max.assign(n, -std::numeric_limits<double>::infinity());
    bins.sum.assign(n, 0.0);
    bins.state.assign(n, 0);
    const BinIndex index(view, bins.width, bins.height);
    if (data.isSparse)
        binSparse(data, view, index, bins);
    else if (blocks.block > 0 && static_cast<long long>(view.width()) * view.height() > blockViewCells)
        binBlocks(blocks, view, index, bins);
    else
        binDense(data, view, index, bins);
    return bins;
}

ColourScale colourScale(const PixelBins& bins, const MatrixStatistics& stats, bool sumBinning, bool logScale)
{
    ColourScale scale;
    scale.diverging = stats.isSigned();
    scale.log = logScale && !scale.diverging;
    if (!sumBinning) {
        scale.min = scale.log ? stats.minPositive : stats.min;
        scale.max = stats.max;
        return scale;
    }
    double lo = std::numeric_limits<double>::infinity(), hi = -lo, minPositive = lo;
    for (std::size_t b = 0; b < bins.sum.size(); ++b)
        if (bins.hasValue(b)) {
            lo = std::min(lo, bins.sum[b]);
            hi = std::max(hi, bins.sum[b]);
            if (bins.sum[b] > 0)
                minPositive = std::min(minPositive, bins.sum[b]);
        }
    if (!std::isfinite(lo))
        lo = hi = 0.0;
    scale.min = scale.log ? (std::isfinite(minPositive) ? minPositive : 1.0) : lo;
    scale.max = hi;
    return scale;
}

QImage colourBins(const PixelBins& bins, bool sumBinning, const ColourScale& scale, bool zeroIsBackground,
                  const HeatmapColours& colours)
{
    // Colours through a lookup table of the palette (4096 steps, finer than any screen can show).
    constexpr int kSteps = 4096;
    std::vector<QRgb> lut(kSteps + 1);
    for (int k = 0; k <= kSteps; ++k)
        lut[k] = (scale.diverging ? colours.diverging(2.0 * k / kSteps - 1.0) : colours.palette(double(k) / kSteps))
                     .rgb();
    const double lo = scale.min, hi = scale.max;
    const double symmetric = std::max(std::abs(lo), std::abs(hi));
    const double logLo = scale.log && lo > 0 ? std::log10(lo) : 0.0;
    const double logSpan = scale.log && lo > 0 && hi > lo ? std::log10(hi) - logLo : 0.0;
    auto colourIndex = [&](double v) -> int {
        double t;
        if (scale.diverging)
            t = symmetric > 0 ? (v / symmetric + 1.0) / 2.0 : 0.5;
        else if (scale.log)
            t = v <= 0 ? -1.0 : logSpan > 0 ? (std::log10(v) - logLo) / logSpan : 1.0;
        else
            t = hi > lo ? (v - lo) / (hi - lo) : 1.0;
        return t < 0 ? -1 : static_cast<int>(std::lround(std::min(t, 1.0) * kSteps));
    };
    const std::vector<double>& shown = sumBinning ? bins.sum : bins.max;
    QImage image(bins.width, bins.height, QImage::Format_RGB32);
    for (int y = 0; y < bins.height; ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x = 0; x < bins.width; ++x) {
            const std::size_t b = static_cast<std::size_t>(y) * bins.width + x;
            if (!bins.hasValue(b))
                line[x] = (bins.hasMissing(b) ? colours.missing : colours.background).rgb();
            else if (shown[b] == 0 && !scale.diverging && zeroIsBackground)
                line[x] = colours.background.rgb();
            else {
                const int k = colourIndex(shown[b]);
                line[x] = k < 0 ? colours.background.rgb() : lut[k];
            }
        }
    }
    return image;
}

} // namespace meridian::widgets
