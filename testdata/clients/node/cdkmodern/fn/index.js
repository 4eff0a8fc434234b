exports.handler = async () => "ok";
