# SPDX-License-Identifier: MIT
# The call graph: the Graphviz layout in a small library of its own (plain C++ over the gvc C
# API), and the Qt panel that draws its result.
add_library(tinspect_graphlayout STATIC ${CMAKE_CURRENT_LIST_DIR}/graph/graphlayout.h
                                        ${CMAKE_CURRENT_LIST_DIR}/graph/graphlayout.cpp)
target_include_directories(tinspect_graphlayout PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(tinspect_graphlayout PRIVATE PkgConfig::GVC ti_warnings)
target_link_libraries(tinspect_ui PRIVATE tinspect_graphlayout)
target_sources(tinspect_ui PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/graph/graphpanel.h
    ${CMAKE_CURRENT_LIST_DIR}/graph/graphpanel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/graph/graphnodeitem.h
    ${CMAKE_CURRENT_LIST_DIR}/graph/graphnodeitem.cpp
    ${CMAKE_CURRENT_LIST_DIR}/graph/graphview.h
    ${CMAKE_CURRENT_LIST_DIR}/graph/graphview.cpp
    ${CMAKE_CURRENT_LIST_DIR}/graph/graphscenebuilder.h
    ${CMAKE_CURRENT_LIST_DIR}/graph/graphscenebuilder.cpp
)
