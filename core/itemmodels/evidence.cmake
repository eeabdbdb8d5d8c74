# SPDX-License-Identifier: MIT
# Models of the evidence views: tensors, tensor statistics, gradient keys, capabilities.
target_sources(tinspect_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/flattablemodel.h ${CMAKE_CURRENT_LIST_DIR}/flattablemodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tensortablemodel.h ${CMAKE_CURRENT_LIST_DIR}/tensortablemodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tensorstatsmodel.h ${CMAKE_CURRENT_LIST_DIR}/tensorstatsmodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/gradientkeymodel.h ${CMAKE_CURRENT_LIST_DIR}/gradientkeymodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/capabilitymodel.h ${CMAKE_CURRENT_LIST_DIR}/capabilitymodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/viewcoverage.h ${CMAKE_CURRENT_LIST_DIR}/viewcoverage.cpp)
