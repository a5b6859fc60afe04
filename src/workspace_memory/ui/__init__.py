"""`memory ui`: a local, offline memory browser, a thin web shell over `api.Memory`.

    app.py            Starlette routes, security headers, the token check, one worker thread for Memory
    server.py         uvicorn on a pre-bound socket; SIGINT/SIGTERM stop it cleanly; --open
    security.py       settings (host, port, token) and the pure checks: loopback, token, Host header
    views.py          the pages (timeline, day, file, search, entities, opinions, status) as HTML
    markdown_view.py  user Markdown -> safe HTML (markdown-it-py, html off) with line anchors and fact marks
    charts.py         inline SVG, generated here: confidence over time, score bars, day bars
    html.py           an escaping HTML builder: every string is escaped unless it is `Safe`
    static/           the one stylesheet; nothing is loaded from anywhere else
"""
