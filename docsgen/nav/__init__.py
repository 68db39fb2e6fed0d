"""Stage `nav`: the navigation tree (sections, sidebars, breadcrumbs, prev/next)."""
