"""Stage `site`: the Site (everything read, nothing rendered), page policies, URL targets, link resolution."""
