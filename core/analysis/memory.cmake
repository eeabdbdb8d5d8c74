# SPDX-License-Identifier: MIT
# Derived values and memory analysis (TRACE_FORMAT.md §7.1, §7.3, §8) and their JSON output.
target_sources(tinspect_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/densebytes.h ${CMAKE_CURRENT_LIST_DIR}/densebytes.cpp
    ${CMAKE_CURRENT_LIST_DIR}/logicalmemorykeys.h
    ${CMAKE_CURRENT_LIST_DIR}/logicalmemory.h ${CMAKE_CURRENT_LIST_DIR}/logicalmemory.cpp
    ${CMAKE_CURRENT_LIST_DIR}/physicalmemory.h ${CMAKE_CURRENT_LIST_DIR}/physicalmemory.cpp
    ${CMAKE_CURRENT_LIST_DIR}/memoryprofile.h ${CMAKE_CURRENT_LIST_DIR}/memoryprofile.cpp
    ${CMAKE_CURRENT_LIST_DIR}/nodememorymetrics.h ${CMAKE_CURRENT_LIST_DIR}/nodememorymetrics.cpp
    ${CMAKE_CURRENT_LIST_DIR}/summary.h ${CMAKE_CURRENT_LIST_DIR}/summary.cpp
    ${CMAKE_CURRENT_LIST_DIR}/timecoordinates.h
    ${CMAKE_CURRENT_LIST_DIR}/memoryseries.h ${CMAKE_CURRENT_LIST_DIR}/memoryseries.cpp
)
target_sources(tinspect_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/../output/summaryjson.h ${CMAKE_CURRENT_LIST_DIR}/../output/summaryjson.cpp
    ${CMAKE_CURRENT_LIST_DIR}/../output/memoryjson.h ${CMAKE_CURRENT_LIST_DIR}/../output/memoryjson.cpp
)
