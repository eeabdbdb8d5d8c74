# SPDX-License-Identifier: MIT
# Issue #9: the timeline, the window-wide selection, the details pane and search.
target_sources(tinspect_ui PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/selection/selection.h
    ${CMAKE_CURRENT_LIST_DIR}/selection/selection.cpp
    ${CMAKE_CURRENT_LIST_DIR}/selection/selectionmodel.h
    ${CMAKE_CURRENT_LIST_DIR}/selection/selectionmodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/selection/viewlinker.h
    ${CMAKE_CURRENT_LIST_DIR}/selection/viewlinker.cpp
    ${CMAKE_CURRENT_LIST_DIR}/timeline/timelinecolors.h
    ${CMAKE_CURRENT_LIST_DIR}/timeline/timelinecolors.cpp
    ${CMAKE_CURRENT_LIST_DIR}/timeline/timelinerows.h
    ${CMAKE_CURRENT_LIST_DIR}/timeline/timelinerows.cpp
    ${CMAKE_CURRENT_LIST_DIR}/timeline/timelineviewstate.h
    ${CMAKE_CURRENT_LIST_DIR}/timeline/timelinepainter.h
    ${CMAKE_CURRENT_LIST_DIR}/timeline/timelinepainter.cpp
    ${CMAKE_CURRENT_LIST_DIR}/timeline/timelinetooltip.h
    ${CMAKE_CURRENT_LIST_DIR}/timeline/timelinetooltip.cpp
    ${CMAKE_CURRENT_LIST_DIR}/timeline/timelineview.h
    ${CMAKE_CURRENT_LIST_DIR}/timeline/timelineview.cpp
)
target_sources(tinspect_ui PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/details/rawlinereader.h
    ${CMAKE_CURRENT_LIST_DIR}/details/rawlinereader.cpp
    ${CMAKE_CURRENT_LIST_DIR}/details/detailspane.h
    ${CMAKE_CURRENT_LIST_DIR}/details/detailspane.cpp
    ${CMAKE_CURRENT_LIST_DIR}/search/searchbar.h
    ${CMAKE_CURRENT_LIST_DIR}/search/searchbar.cpp
)
