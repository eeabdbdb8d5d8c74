# SPDX-License-Identifier: MIT
# Issue #9: the details pane's models (a record's fields, a span's contents).
target_sources(tinspect_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/spancontentsmodel.h ${CMAKE_CURRENT_LIST_DIR}/spancontentsmodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/recordfieldsmodel.h ${CMAKE_CURRENT_LIST_DIR}/recordfieldsmodel.cpp)
