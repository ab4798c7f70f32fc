#pragma once

#include "widgets/heatmap_data.h"

#include <QColor>
#include <QImage>
#include <QRect>

#include <cstdint>
#include <vector>

namespace meridian::widgets {

/// The statistics a heatmap shows beside its cells: row and column sums, and the value range.
struct MatrixStatistics {
    std::vector<double> rowSums;
    std::vector<double> columnSums;
    double min = 0.0;         ///< smallest value (0 when a sparse matrix has absent cells)
    double max = 0.0;         ///< largest value
    double minPositive = 1.0; ///< smallest positive value (1 when there is none), the floor of a log scale
    bool isSigned() const { return min < 0; }
};
/// One pass over the matrix (NaN cells ignored).
MatrixStatistics matrixStatistics(const HeatmapData& data);

/// The block level of a large dense matrix: max, sum and "has a missing cell" of every block x block square,
/// so that binning millions of cells into a few hundred pixels reads each cell once up front, not per frame.
struct BlockLevel {
    int block = 0; ///< 0 = no block level (sparse, or small enough to bin directly)
    int rows = 0, columns = 0;
    std::vector<float> max, sum;
    std::vector<std::uint8_t> missing;
};
/// Built for a dense matrix of more than `cellThreshold` cells, with about `blocksPerSide` blocks per side.
BlockLevel buildBlockLevel(const HeatmapData& data, long long cellThreshold, int blocksPerSide);

/// The cells of a view aggregated per pixel: at most one pixel per cell in each direction.
struct PixelBins {
    int width = 0, height = 0;
    std::vector<double> max, sum;
    std::vector<std::uint8_t> state; ///< bit 0: a value landed here, bit 1: a missing (NaN) cell did
    bool hasValue(std::size_t b) const { return state[b] & 1; }
    bool hasMissing(std::size_t b) const { return state[b] & 2; }
};
/// Bins the cells of `view` (columns x rows of the matrix) into `pixels`: each visible row and column maps to
/// one pixel row and column (r * height / rows). A sparse matrix visits only its stored entries; a dense one
/// with a block level reads the blocks (each landing in the pixel of its centre) when the view has more than
/// `blockViewCells` cells.
PixelBins binCells(const HeatmapData& data, const QRect& view, const QSize& pixels, const BlockLevel& blocks,
                   long long blockViewCells);

/// How values map to colours.
struct ColourScale {
    double min = 0.0, max = 1.0;
    bool log = false;       ///< log10 between min and max (min > 0); values <= 0 are background
    bool diverging = false; ///< signed data: a diverging palette symmetric around zero
};
/// The range a scale spans: the matrix's range for max binning (its positive floor on a log scale), the
/// range of the pixel sums for sum binning.
ColourScale colourScale(const PixelBins& bins, const MatrixStatistics& stats, bool sumBinning, bool logScale);

/// The colours of a heatmap.
struct HeatmapColours {
    QColor background;             ///< no value (or zero in a sparse or log-scaled matrix)
    QColor missing;                ///< only missing cells
    QColor (*palette)(double t);   ///< t in [0, 1]
    QColor (*diverging)(double t); ///< t in [-1, 1]
};
/// Colours the bins (through a 4096-step lookup table of the palette). `zeroIsBackground`: zero pixels are
/// drawn as background (a sparse matrix's absent cells, or a log scale).
QImage colourBins(const PixelBins& bins, bool sumBinning, const ColourScale& scale, bool zeroIsBackground,
                  const HeatmapColours& colours);

} // namespace meridian::widgets
