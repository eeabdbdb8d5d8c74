# SPDX-License-Identifier: MIT
# The span tree and op table panels, their delegates and the debounced filter field.
target_sources(tinspect_ui PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/spantreepanel.h
    ${CMAKE_CURRENT_LIST_DIR}/spantreepanel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/optablepanel.h
    ${CMAKE_CURRENT_LIST_DIR}/optablepanel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/delegates/durationbardelegate.h
    ${CMAKE_CURRENT_LIST_DIR}/delegates/durationbardelegate.cpp
    ${CMAKE_CURRENT_LIST_DIR}/delegates/spanitemdelegate.h
    ${CMAKE_CURRENT_LIST_DIR}/delegates/spanitemdelegate.cpp
    ${CMAKE_CURRENT_LIST_DIR}/widgets/filterlineedit.h
    ${CMAKE_CURRENT_LIST_DIR}/widgets/filterlineedit.cpp
    ${CMAKE_CURRENT_LIST_DIR}/widgets/treeview.h
    ${CMAKE_CURRENT_LIST_DIR}/widgets/treeview.cpp
)
