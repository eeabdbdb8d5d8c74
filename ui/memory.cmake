# SPDX-License-Identifier: MIT
# The memory chart (the only Qt Charts user) and the table of allocations live at the peak.
target_sources(tinspect_ui PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/memorychartpanel.h
    ${CMAKE_CURRENT_LIST_DIR}/memorychartpanel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/peakallocationsmodel.h
    ${CMAKE_CURRENT_LIST_DIR}/peakallocationsmodel.cpp
)
