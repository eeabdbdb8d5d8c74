# SPDX-License-Identifier: MIT
# Validation issue table, its filter proxy and the run metadata tree.
target_sources(tinspect_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/validationissuemodel.h
    ${CMAKE_CURRENT_LIST_DIR}/validationissuemodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/validationfilterproxymodel.h
    ${CMAKE_CURRENT_LIST_DIR}/validationfilterproxymodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/validationgroupmodel.h
    ${CMAKE_CURRENT_LIST_DIR}/validationgroupmodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/metadatamodel.h
    ${CMAKE_CURRENT_LIST_DIR}/metadatamodel.cpp
)
