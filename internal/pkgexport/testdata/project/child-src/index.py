def handler(event, context): return "child"
