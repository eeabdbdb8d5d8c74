# SPDX-License-Identifier: MIT
target_sources(tinspect_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/modelroles.h
    ${CMAKE_CURRENT_LIST_DIR}/spantreemodel.h ${CMAKE_CURRENT_LIST_DIR}/spantreemodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/spanfilterproxymodel.h ${CMAKE_CURRENT_LIST_DIR}/spanfilterproxymodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/optablemodel.h ${CMAKE_CURRENT_LIST_DIR}/optablemodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/opfilterproxymodel.h ${CMAKE_CURRENT_LIST_DIR}/opfilterproxymodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/opaggregatemodel.h ${CMAKE_CURRENT_LIST_DIR}/opaggregatemodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/liveallocationsmodel.h ${CMAKE_CURRENT_LIST_DIR}/liveallocationsmodel.cpp)
