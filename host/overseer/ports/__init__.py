"""What the app and the devices share: the inputs and effects (``events``), the app's one
inbox (``inbox``) and the small protocols of the box's parts (``ports``). Both the app and the
devices import this package; neither imports the other for these."""
