// STUB: replaced by the PlatformSpec loader.
namespace edgesim { int platforms_stub = 0; }
