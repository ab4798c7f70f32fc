#include "app/project/project.h"

namespace meridian::document {

model::Network Project::completeNetwork(model::DistanceModel* model) const
{
    return model::NetworkEstimator::complete(network, topology, model);
}

int Project::applicationIndex(const std::string& name) const
{
    for (std::size_t i = 0; i < applications.size(); ++i)
        if (applications[i].name == name)
            return static_cast<int>(i);
    return -1;
}

int Project::graphIndex(const std::string& name) const
{
    for (std::size_t i = 0; i < graphs.size(); ++i)
        if (graphs[i].name == name)
            return static_cast<int>(i);
    return -1;
}

} // namespace meridian::document
