# SPDX-License-Identifier: MIT
# The evidence views: tensors, tensor statistics, gradients, capabilities.
target_sources(tinspect_ui PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/evidencetablepanel.h
    ${CMAKE_CURRENT_LIST_DIR}/evidencetablepanel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tensorspanel.h
    ${CMAKE_CURRENT_LIST_DIR}/tensorspanel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tensorstatspanel.h
    ${CMAKE_CURRENT_LIST_DIR}/tensorstatspanel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/gradientspanel.h
    ${CMAKE_CURRENT_LIST_DIR}/gradientspanel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/gradienthistogram.h
    ${CMAKE_CURRENT_LIST_DIR}/gradienthistogram.cpp
    ${CMAKE_CURRENT_LIST_DIR}/evidencepanel.h
    ${CMAKE_CURRENT_LIST_DIR}/evidencepanel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/delegates/capabilitydelegate.h
    ${CMAKE_CURRENT_LIST_DIR}/delegates/capabilitydelegate.cpp
    ${CMAKE_CURRENT_LIST_DIR}/widgets/coveragebadge.h
    ${CMAKE_CURRENT_LIST_DIR}/widgets/coveragebadge.cpp
)
