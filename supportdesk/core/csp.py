"""The Content-Security-Policy of the service's own pages (the operator console, the owners'
portal). They have no inline script, no inline style attribute and no `javascript:` URL, so the
policy forbids all three: markup injected into a page could neither run nor restyle it. Colours
that come from data (a project's colour) are set by the pages' scripts through CSSOM
(`element.style.setProperty`), which the policy allows, from `data-renk` attributes.
"""


def sayfa_csp(*, connect_src: str = "'self'") -> str:
    return (f"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: https:; "
            f"connect-src {connect_src}; object-src 'none'; base-uri 'none'; form-action 'self'; "
            "frame-ancestors 'none'")
