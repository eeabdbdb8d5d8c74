# SPDX-License-Identifier: MIT
# The memory chart (the only Qt Charts user) with the table of allocations live at an instant.
target_sources(tinspect_ui PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/memorychartpanel.h
    ${CMAKE_CURRENT_LIST_DIR}/memorychartpanel.cpp
)
