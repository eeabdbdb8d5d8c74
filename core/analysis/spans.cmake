# SPDX-License-Identifier: MIT
target_sources(tinspect_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/spantree.h ${CMAKE_CURRENT_LIST_DIR}/spantree.cpp
    ${CMAKE_CURRENT_LIST_DIR}/opstatistics.h ${CMAKE_CURRENT_LIST_DIR}/opstatistics.cpp
    ${CMAKE_CURRENT_LIST_DIR}/format.h ${CMAKE_CURRENT_LIST_DIR}/format.cpp
    ${CMAKE_CURRENT_LIST_DIR}/radixorder.h ${CMAKE_CURRENT_LIST_DIR}/radixorder.cpp
    ${CMAKE_CURRENT_LIST_DIR}/devicetime.h ${CMAKE_CURRENT_LIST_DIR}/devicetime.cpp
    ${CMAKE_CURRENT_LIST_DIR}/callgraph.h ${CMAKE_CURRENT_LIST_DIR}/callgraph.cpp)
