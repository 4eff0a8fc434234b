def handler(event, context):
    for record in event.get("Records", []):
        print(record)
