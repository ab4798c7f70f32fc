#pragma once

#include "core/common/expected.h"
#include "core/model/topology.h"

#include <vector>

namespace meridian::model {

/// A process that must run in a given site (data that must stay where it is).
struct Pin {
    int process = 0;
    int site = 0;
};

/// The pins of one application: at most one per process, kept sorted by process.
class Constraints {
public:
    Constraints() = default;

    /// Builds constraints from pins; rejects a process pinned twice or a negative process id.
    static Expected<Constraints> fromPins(std::vector<Pin> pins);

    const std::vector<Pin>& pins() const { return m_pins; }
    bool empty() const { return m_pins.empty(); }
    int size() const { return static_cast<int>(m_pins.size()); }
    /// Returns the pinned site of every process of an n-process application, -1 where free.
    std::vector<int> siteVector(int processCount) const;

    /// Checks the pins against an application and a topology: every process below `processCount`,
    /// every site known, and no site with more pins than slots (the error names the site and the excess).
    Status validate(int processCount, const Topology& topology) const;

private:
    std::vector<Pin> m_pins;
};

} // namespace meridian::model
