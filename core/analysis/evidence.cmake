# SPDX-License-Identifier: MIT
# The evidence views' analyses: tensor joins, tensor_stats outlier rules, gradient keys
# against the contract, and the capability matrix. Plain C++, no Qt.
target_sources(tinspect_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/tensorevidence.h
    ${CMAKE_CURRENT_LIST_DIR}/tensorevidence.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tensorstatsoutliers.h
    ${CMAKE_CURRENT_LIST_DIR}/tensorstatsoutliers.cpp
    ${CMAKE_CURRENT_LIST_DIR}/gradientevidence.h
    ${CMAKE_CURRENT_LIST_DIR}/gradientevidence.cpp
    ${CMAKE_CURRENT_LIST_DIR}/capabilitymatrix.h
    ${CMAKE_CURRENT_LIST_DIR}/capabilitymatrix.cpp
    ${CMAKE_CURRENT_LIST_DIR}/evidenceanalysis.h
    ${CMAKE_CURRENT_LIST_DIR}/evidenceanalysis.cpp
)
